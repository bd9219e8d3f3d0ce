import { and, eq, gt, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskFiles, diskUploads } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { uploadUrl } from "@/lib/disk/blob-urls";
import { writablePath, contentTypeProblem, DEFAULT_CONTENT_TYPE } from "@/lib/disk/file-input";
import { fieldError } from "@/lib/disk/field-error";
import { newBlobKey } from "@/lib/disk/file-view";
import { MAX_BYTES, OPEN_UPLOADS_PER_PATH, UPLOAD_MAX_BYTES, UPLOAD_SECONDS } from "@/lib/disk/limits";
import { getUsage, lockUsage, purgeExpiredKeys } from "@/lib/disk/usage";

/**
 * file_put with `upload: {size, content_type}`: records the upload and answers where to PUT the bytes — a
 * presigned S3 URL, or Brynth's own signed URL on the local store. `via: "brynth"` forces the latter (the dashboard
 * uploads same-origin, so an S3 bucket needs no CORS rules for it).
 */
export async function startUpload(db: Executor, opts: { actor: Actor; path: string; size: number; contentType?: string; via?: "store" | "brynth" }) {
  const path = writablePath(opts.path);
  const contentType = opts.contentType ?? DEFAULT_CONTENT_TYPE;
  const problem = contentTypeProblem(contentType);
  if (problem) throw fieldError("upload.content_type", problem);
  if (!Number.isInteger(opts.size) || opts.size < 0 || opts.size > UPLOAD_MAX_BYTES) {
    throw fieldError("upload.size", `must be a whole number of bytes from 0 to ${UPLOAD_MAX_BYTES} (100 MB)`);
  }
  const projectId = opts.actor.projectId;
  // One upload start per project at a time, so two starts cannot both see two open uploads and make four.
  await lockUsage(db, projectId);

  const now = new Date();
  const [existing] = await db
    .select({ size: diskFiles.sizeBytes })
    .from(diskFiles)
    .where(and(eq(diskFiles.projectId, projectId), eq(diskFiles.path, path)));
  // Open uploads hold their size until they complete or expire: their objects are in the store already, or about
  // to be, and counting committed files alone let one key park ten 100 MB uploads in a project 150 MB short.
  const [{ reserved }] = await db
    .select({ reserved: sql<number>`coalesce(sum(${diskUploads.sizeBytes}), 0)::int8` })
    .from(diskUploads)
    .where(and(eq(diskUploads.projectId, projectId), gt(diskUploads.expiresAt, now)));
  const fits = async () => (await getUsage(db, projectId)).bytes + Number(reserved) - (existing?.size ?? 0) + opts.size <= MAX_BYTES;
  // Expired keys hold no space: freed before refusing, as every other write does (reserveUsage).
  if (!(await fits()) && !((await purgeExpiredKeys(db, projectId)) > 0 && (await fits()))) {
    const held = Number(reserved) > 0 ? `, with ${Number(reserved)} bytes held by open uploads until they complete or expire` : "";
    throw new AppError("QUOTA_EXCEEDED", `A ${opts.size}-byte file would take the project disk past 1 GB${held}.`, {
      fix: "Delete files or keys you no longer need (file_delete, kv_delete), or complete the open uploads, then retry.",
    });
  }
  const open = await db
    .select({ id: diskUploads.id })
    .from(diskUploads)
    .where(and(eq(diskUploads.projectId, projectId), eq(diskUploads.path, path), gt(diskUploads.expiresAt, now)));
  if (open.length >= OPEN_UPLOADS_PER_PATH) {
    throw new AppError("UPLOAD_LIMIT", `${path} already has ${open.length} open uploads.`, {
      fix: `Complete one (file_put with complete: upload_id: ${open.map((u) => u.id).join(", ")}) or let it expire (15 minutes).`,
    });
  }

  const id = newId("upl");
  const blobKey = newBlobKey(projectId);
  const expiresAt = new Date(now.getTime() + UPLOAD_SECONDS * 1000);
  await db.insert(diskUploads).values({
    id,
    projectId,
    path,
    blobKey,
    sizeBytes: opts.size,
    contentType,
    keyId: opts.actor.keyId,
    createdAt: now,
    expiresAt,
  });
  const store = await getBlobStore();
  const target =
    store.presignPut && opts.via !== "brynth"
      ? await store.presignPut(blobKey, { size: opts.size, contentType, expiresIn: UPLOAD_SECONDS })
      : { url: uploadUrl(id, expiresAt), headers: { "Content-Type": contentType } };
  return {
    status: "uploading" as const,
    upload_id: id,
    upload_url: target.url,
    upload_headers: target.headers,
    expires_at: expiresAt.toISOString(),
  };
}
