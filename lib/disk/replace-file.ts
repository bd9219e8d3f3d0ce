import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskFiles, diskLinks, type DiskFile } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { dropUploads, uploadGone } from "@/lib/disk/drop-uploads";
import { trashBlob } from "@/lib/disk/trash-blob";
import { reserveUsage } from "@/lib/disk/usage";

/** Takes a file version out of service: its links stop working and its object is queued for erasure. */
export async function retireFile(db: Executor, file: DiskFile): Promise<void> {
  await db.delete(diskFiles).where(eq(diskFiles.id, file.id));
  await db.update(diskLinks).set({ revokedAt: new Date() }).where(and(eq(diskLinks.fileId, file.id), isNull(diskLinks.revokedAt)));
  await trashBlob(db, { projectId: file.projectId, blobKey: file.blobKey });
}

/**
 * Saves an object already in the store as the file at `path`. The old version (if any) is retired — a new row id,
 * so links and download URLs bound to the old one can never serve these bytes — and open uploads of the path are
 * dropped. Locks: file row, uploads, links, then usage (the order every disk writer uses).
 */
export async function replaceFile(
  db: Executor,
  opts: { actor: Actor; path: string; blobKey: string; sizeBytes: number; contentType: string; completedUploadId?: string },
): Promise<DiskFile> {
  const projectId = opts.actor.projectId;
  const where = and(eq(diskFiles.projectId, projectId), eq(diskFiles.path, opts.path));
  for (let attempt = 0; attempt < 5; attempt++) {
    const [current] = await db.select().from(diskFiles).where(where).for("update");
    if (current) await retireFile(db, current);
    const now = new Date();
    const [row] = await db
      .insert(diskFiles)
      .values({
        id: newId("fil"),
        projectId,
        path: opts.path,
        blobKey: opts.blobKey,
        sizeBytes: opts.sizeBytes,
        contentType: opts.contentType,
        keyId: opts.actor.keyId,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: [diskFiles.projectId, diskFiles.path] })
      .returning();
    if (!row) continue; // another writer saved this path since our read: lock its row and go again
    const dropped = await dropUploads(db, { projectId, path: opts.path, except: opts.completedUploadId });
    if (opts.completedUploadId && !dropped.includes(opts.completedUploadId)) throw uploadGone(opts.completedUploadId);
    await reserveUsage(db, projectId, { bytes: opts.sizeBytes - (current?.sizeBytes ?? 0) });
    return row;
  }
  throw new AppError("CONFLICT", `${opts.path} is being written by others right now.`, { fix: "Retry the call." });
}
