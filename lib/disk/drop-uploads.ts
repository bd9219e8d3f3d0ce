import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { diskUploads } from "@/lib/db/schema/disk";
import { notFound } from "@/lib/errors";
import { trashBlob } from "@/lib/disk/trash-blob";
import { lockUsage } from "@/lib/disk/usage";
import { LATE_PUT_MS } from "@/lib/disk/limits";

export const uploadGone = (id: string) =>
  notFound(`Upload ${id}`, "It expired, was completed, or its path was written or deleted since it started: start a new upload.");

/**
 * Drops the open uploads of a path that was written or deleted ("complete answers NOT_FOUND"), and the one being
 * completed (its file has its own copy of the bytes). Their objects are erased only after the upload URLs expire,
 * since a client may still PUT to a presigned S3 URL until then. Returns the ids dropped.
 */
export async function dropUploads(db: Executor, opts: { projectId: string; path: string }): Promise<string[]> {
  // After the upload starts under way: each holds the usage row until it commits (lockUsage).
  await lockUsage(db, opts.projectId);
  const dropped = await db
    .delete(diskUploads)
    .where(and(eq(diskUploads.projectId, opts.projectId), eq(diskUploads.path, opts.path)))
    .returning({ id: diskUploads.id, blobKey: diskUploads.blobKey, expiresAt: diskUploads.expiresAt });
  for (const u of dropped) {
    await trashBlob(db, { projectId: opts.projectId, blobKey: u.blobKey, notBefore: new Date(u.expiresAt.getTime() + LATE_PUT_MS) });
  }
  return dropped.map((u) => u.id);
}
