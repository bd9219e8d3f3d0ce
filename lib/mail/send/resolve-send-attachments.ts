import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { fieldError } from "@/lib/disk/field-error";
import { attachmentNames } from "@/lib/mail/inbound/attachment-names";
import type { StoredBlob } from "@/lib/mail/inbound/store-inbound";
import { ATTACHMENTS_MAX_BYTES, MAX_ATTACHMENTS } from "@/lib/mail/outbound/limits";
import { type OutboundFile, resolveAttachments } from "@/lib/mail/outbound/resolve-attachments";
import type { AttachmentInput } from "@/lib/mail/send/attachment-input";

/** A send's files before they are stored: new ones with their bytes, kept ones (a forward's, a draft's) by blob. */
export interface SendFiles {
  fresh: OutboundFile[];
  kept: StoredBlob[];
}

/**
 * Reads a send's new attachments: inline base64, or files Brynth holds (disk paths, `disk://`, `evt_…/name`, with
 * file_get's rules and NOT_FOUND). Errors name `attachments.N`. The total with the kept files is at most 10 MB and
 * 10 files; names are made unique across all of them. Nothing is stored yet: a later refusal leaves no blob.
 */
export async function resolveSendAttachments(
  db: Executor,
  actor: Actor,
  inputs: readonly AttachmentInput[],
  kept: readonly StoredBlob[] = [],
): Promise<SendFiles> {
  if (inputs.length + kept.length > MAX_ATTACHMENTS) {
    throw fieldError("attachments", `at most ${MAX_ATTACHMENTS} files per message (${inputs.length + kept.length} with the ones already attached)`);
  }
  const fresh: OutboundFile[] = [];
  for (const [i, a] of inputs.entries()) {
    if (a.content !== undefined) {
      fresh.push({ name: a.filename ?? "attachment", contentType: a.contentType ?? "application/octet-stream", bytes: Buffer.from(a.content, "base64") });
      continue;
    }
    try {
      const [file] = await resolveAttachments(db, actor, [a.path ?? ""]);
      fresh.push({ ...file, name: a.filename ?? file.name, contentType: a.contentType ?? file.contentType });
    } catch (err) {
      // resolveAttachments names its own list's index; this list's is `i`.
      if (err instanceof AppError && err.code === "validation_error") throw fieldError(`attachments.${i}`, err.message.replace(/^attachments(\.\d+)?: /, ""));
      if (err instanceof AppError && err.code === "NOT_FOUND") throw new AppError("NOT_FOUND", `attachments.${i}: file ${a.path} not found.`, { fix: err.fix });
      throw err;
    }
  }
  const total = fresh.reduce((n, f) => n + f.bytes.byteLength, 0) + kept.reduce((n, k) => n + k.sizeBytes, 0);
  if (total > ATTACHMENTS_MAX_BYTES) {
    throw fieldError(
      "attachments",
      `total ${total} bytes, more than the 10 MB allowed per message`,
      "Attach fewer or smaller files, or share large files with file_url links.",
    );
  }
  const names = attachmentNames([...kept.map((k) => k.name), ...fresh.map((f) => f.name)]);
  return {
    kept: kept.map((k, i) => ({ ...k, name: names[i] })),
    fresh: fresh.map((f, i) => ({ ...f, name: names[kept.length + i] })),
  };
}
