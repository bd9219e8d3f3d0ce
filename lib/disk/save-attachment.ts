import type { Executor } from "@/lib/db/client";
import { diskAttachments } from "@/lib/db/schema/disk";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { AppError } from "@/lib/errors";
import { contentTypeProblem, DEFAULT_CONTENT_TYPE } from "@/lib/disk/file-input";
import { newBlobKey } from "@/lib/disk/file-view";
import { pathProblem } from "@/lib/disk/path-rules";

/**
 * A file name from an email made safe as the `name` of `evt_…/name`: one path segment, no control characters, no
 * slashes or backslashes, not `.`/`..`, at most 255 bytes; `attachment` when nothing usable is left. Callers make
 * names unique within one event themselves (e.g. `report (2).pdf`).
 */
export function safeAttachmentName(raw: string | null | undefined): string {
  let name = (raw ?? "")
    .replace(/\p{Cc}/gu, "")
    .replace(/[\\/]/g, "_")
    .trim();
  while (Buffer.byteLength(name) > 255) name = name.slice(0, -1);
  if (!name || name === "." || name === ".." || pathProblem(name)) return "attachment";
  return name;
}

/**
 * Stores an inbound attachment (for the mail engine, inside its own transaction) so that `evt_…/name` resolves in
 * file_get, file_url and email_send. The bytes are written first; if the transaction then rolls back, the object is
 * unreferenced. Attachments do not count toward the disk's 1 GB: they are mail storage.
 */
export async function saveAttachment(
  db: Executor,
  opts: { projectId: string; eventId: string; name: string; contentType?: string; bytes: Uint8Array },
): Promise<{ path: string; size_bytes: number; content_type: string }> {
  if (!opts.eventId.startsWith("evt_") || opts.eventId.includes("/")) throw new AppError("bad_request", `Not an event id: ${opts.eventId}`);
  if (safeAttachmentName(opts.name) !== opts.name)
    throw new AppError("bad_request", `Unsafe attachment name: ${JSON.stringify(opts.name)}`, { fix: "Pass the name through safeAttachmentName first." });
  const contentType = opts.contentType && !contentTypeProblem(opts.contentType) ? opts.contentType : DEFAULT_CONTENT_TYPE;
  const blobKey = newBlobKey(opts.projectId);
  const store = await getBlobStore();
  await store.put(blobKey, opts.bytes, { size: opts.bytes.byteLength, contentType });
  try {
    await db.insert(diskAttachments).values({
      projectId: opts.projectId,
      eventId: opts.eventId,
      name: opts.name,
      blobKey,
      sizeBytes: opts.bytes.byteLength,
      contentType,
    });
  } catch (err) {
    await store.delete(blobKey).catch(() => {});
    throw err;
  }
  return { path: `${opts.eventId}/${opts.name}`, size_bytes: opts.bytes.byteLength, content_type: contentType };
}
