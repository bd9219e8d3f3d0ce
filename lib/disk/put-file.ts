import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { discardOnRollback } from "@/lib/blob/unused-blob";
import { writablePath, contentTypeProblem, decodeBase64, DEFAULT_CONTENT_TYPE } from "@/lib/disk/file-input";
import { fieldError } from "@/lib/disk/field-error";
import { fileView, newBlobKey } from "@/lib/disk/file-view";
import { replaceFile } from "@/lib/disk/replace-file";

/** file_put with `content_base64`: the bytes go to the store, then the row replaces the path's file. */
export async function putFile(db: Executor, opts: { actor: Actor; path: string; contentBase64: string; contentType?: string }) {
  const path = writablePath(opts.path);
  const contentType = opts.contentType ?? DEFAULT_CONTENT_TYPE;
  const problem = contentTypeProblem(contentType);
  if (problem) throw fieldError("content_type", problem);
  const bytes = decodeBase64(opts.contentBase64);
  const store = await getBlobStore();
  const blobKey = newBlobKey(opts.actor.projectId);
  await store.put(blobKey, bytes, { size: bytes.byteLength, contentType });
  // Refused here or failing later (the ledger entry, the COMMIT), the transaction rolls back and nothing names the bytes.
  discardOnRollback(db, blobKey);
  const row = await replaceFile(db, { actor: opts.actor, path, blobKey, sizeBytes: bytes.byteLength, contentType });
  return { status: "saved" as const, ...fileView(row) };
}
