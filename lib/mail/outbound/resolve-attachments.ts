import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { openDiskFile } from "@/lib/disk/open-file";
import { fieldError } from "@/lib/disk/field-error";
import { attachmentNames } from "@/lib/mail/inbound/attachment-names";
import { ATTACHMENTS_MAX_BYTES } from "@/lib/mail/outbound/limits";

export interface OutboundFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * email_send's attachments: disk paths, `disk://` references or inbound attachments (`evt_…/name`), read through
 * the disk module (same path rules and NOT_FOUND as file_get). Sizes are checked from the rows before any byte is
 * read, with `otherBytes` a send's other attachments already hold, and errors name `attachments.<indexes[i]>` (the
 * send's own list). The bytes are copied into the mail store, so replacing the file later does not change a queued
 * message.
 */
export async function resolveAttachments(
  db: Executor,
  actor: Actor,
  paths: readonly string[],
  o: { indexes?: readonly number[]; otherBytes?: number } = {},
): Promise<OutboundFile[]> {
  const files = [];
  for (const [j, path] of paths.entries()) {
    const i = o.indexes?.[j] ?? j;
    try {
      files.push(await openDiskFile(db, { actor, path }));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === "validation_error")
        throw fieldError(`attachments.${i}`, `${JSON.stringify(path)} is not a valid path: ${err.message.replace(/^path: /, "")}`);
      if (err.code === "NOT_FOUND") {
        throw new AppError("NOT_FOUND", `attachments.${i}: file ${path} not found.`, {
          fix: "Attach files that exist: list them with file_list; inbound attachments are evt_<event id>/<name> as named in the event.",
        });
      }
      throw err;
    }
  }
  const total = files.reduce((n, f) => n + f.sizeBytes, o.otherBytes ?? 0);
  if (total > ATTACHMENTS_MAX_BYTES) {
    throw fieldError(
      "attachments",
      `total ${total} bytes, more than the 10 MB (${ATTACHMENTS_MAX_BYTES} bytes) allowed per message`,
      "Attach fewer or smaller files, or share large files with file_url links.",
    );
  }
  const names = attachmentNames(files.map((f) => f.name));
  const out: OutboundFile[] = [];
  for (const [i, f] of files.entries()) out.push({ name: names[i], contentType: f.contentType, bytes: await f.read() });
  return out;
}
