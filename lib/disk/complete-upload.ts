import { and, eq } from "drizzle-orm";
import { discardOnRollback } from "@/lib/blob/unused-blob";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskUploads } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { writablePath } from "@/lib/disk/file-input";
import { fieldError } from "@/lib/disk/field-error";
import { fileView, newBlobKey } from "@/lib/disk/file-view";
import { uploadGone } from "@/lib/disk/drop-uploads";
import { replaceFile } from "@/lib/disk/replace-file";

/**
 * file_put with `complete: upload_id`: the object must be in the store with exactly the announced size, else
 * UPLOAD_INCOMPLETE and nothing changes (the upload stays open until it expires, so the PUT can be retried).
 * The upload row is not locked here: replaceFile locks the file row first and then checks that it removed this
 * upload itself, so a concurrent write of the path (which drops it) makes this call NOT_FOUND, never a deadlock.
 */
export async function completeUpload(db: Executor, opts: { actor: Actor; path: string; uploadId: string }) {
  const path = writablePath(opts.path);
  const [upload] = await db
    .select()
    .from(diskUploads)
    .where(and(eq(diskUploads.id, opts.uploadId), eq(diskUploads.projectId, opts.actor.projectId)));
  if (!upload || upload.expiresAt <= new Date()) throw uploadGone(opts.uploadId);
  if (upload.path !== path) throw fieldError("path", `upload ${upload.id} is for ${upload.path}, not this path`);
  const store = await getBlobStore();
  const found = await store.head(upload.blobKey);
  if (!found || found.size !== upload.sizeBytes) {
    throw new AppError(
      "UPLOAD_INCOMPLETE",
      found ? `The uploaded object is ${found.size} bytes, not the announced ${upload.sizeBytes}.` : "Nothing has been uploaded for this upload_id yet.",
      { fix: `PUT exactly ${upload.sizeBytes} bytes to upload_url with upload_headers before ${upload.expiresAt.toISOString()}, then complete again.` },
    );
  }
  // The upload URL stays valid for the rest of its 15 minutes, and a presigned S3 PUT cannot be taken back: the file
  // gets its own copy of the bytes, so a later PUT to that URL never changes a saved version or what its links serve.
  const blobKey = newBlobKey(opts.actor.projectId);
  await store.copy(upload.blobKey, blobKey);
  discardOnRollback(db, blobKey);
  const row = await replaceFile(db, {
    actor: opts.actor,
    path: upload.path,
    blobKey,
    sizeBytes: upload.sizeBytes,
    contentType: upload.contentType,
    completedUploadId: upload.id,
  });
  return { status: "saved" as const, ...fileView(row) };
}
