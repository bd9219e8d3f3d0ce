import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
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
  const fresh: Array<OutboundFile | undefined> = inputs.map((a) =>
    a.content === undefined
      ? undefined
      : { name: a.filename ?? "attachment", contentType: a.contentType ?? "application/octet-stream", bytes: Buffer.from(a.content, "base64") },
  );
  const held = fresh.reduce((n, f) => n + (f?.bytes.byteLength ?? 0), 0) + kept.reduce((n, k) => n + k.sizeBytes, 0);
  // The files by path in one call, their sizes checked with the rest before any is read: one at a time, ten files of
  // 10 MB were all read into memory before the total refused them.
  const byPath = inputs.flatMap((a, i) => (a.content === undefined ? [i] : []));
  const read = await resolveAttachments(
    db,
    actor,
    byPath.map((i) => inputs[i].path ?? ""),
    { indexes: byPath, otherBytes: held },
  );
  for (const [j, i] of byPath.entries()) {
    const a = inputs[i];
    fresh[i] = { ...read[j], name: a.filename ?? read[j].name, contentType: a.contentType ?? read[j].contentType };
  }
  const files = fresh.filter((f): f is OutboundFile => f !== undefined);
  const total = files.reduce((n, f) => n + f.bytes.byteLength, 0) + kept.reduce((n, k) => n + k.sizeBytes, 0);
  if (total > ATTACHMENTS_MAX_BYTES) {
    throw fieldError(
      "attachments",
      `total ${total} bytes, more than the 10 MB allowed per message`,
      "Attach fewer or smaller files, or share large files with file_url links.",
    );
  }
  const names = attachmentNames([...kept.map((k) => k.name), ...files.map((f) => f.name)]);
  return {
    kept: kept.map((k, i) => ({ ...k, name: names[i] })),
    fresh: files.map((f, i) => ({ ...f, name: names[kept.length + i] })),
  };
}
