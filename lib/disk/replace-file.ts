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
export async function retireVersion(db: Executor, file: DiskFile): Promise<void> {
  await db
    .update(diskLinks)
    .set({ revokedAt: new Date() })
    .where(and(eq(diskLinks.projectId, file.projectId), eq(diskLinks.fileId, file.id), isNull(diskLinks.revokedAt)));
  await trashBlob(db, { projectId: file.projectId, blobKey: file.blobKey });
}

/**
 * Saves an object already in the store as the file at `path`. A replaced file keeps its row but gets a new id
 * (the version): links and download URLs bound to the old id can never serve these bytes. Updating the row in place,
 * rather than deleting it, lets concurrent writers of the same path queue on its lock and then see the new version.
 * Open uploads of the path are dropped. Locks: file row, uploads, links, then usage (every disk writer's order).
 */
export async function replaceFile(
  db: Executor,
  opts: { actor: Actor; path: string; blobKey: string; sizeBytes: number; contentType: string; completedUploadId?: string },
): Promise<DiskFile> {
  const projectId = opts.actor.projectId;
  const where = and(eq(diskFiles.projectId, projectId), eq(diskFiles.path, opts.path));
  const version = {
    blobKey: opts.blobKey,
    sizeBytes: opts.sizeBytes,
    contentType: opts.contentType,
    keyId: opts.actor.keyId,
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date();
    const [current] = await db.select().from(diskFiles).where(where).for("update");
    let row: DiskFile | undefined;
    if (current) {
      await retireVersion(db, current);
      [row] = await db
        .update(diskFiles)
        .set({ id: newId("fil"), ...version, createdAt: now, updatedAt: now })
        .where(and(eq(diskFiles.projectId, projectId), eq(diskFiles.id, current.id)))
        .returning();
    } else {
      // A new path: if another writer creates it first, loop and queue on its row instead.
      [row] = await db
        .insert(diskFiles)
        .values({ id: newId("fil"), projectId, path: opts.path, ...version, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: [diskFiles.projectId, diskFiles.path] })
        .returning();
    }
    if (!row) continue;
    const dropped = await dropUploads(db, { projectId, path: opts.path });
    if (opts.completedUploadId && !dropped.includes(opts.completedUploadId)) throw uploadGone(opts.completedUploadId);
    await reserveUsage(db, projectId, { bytes: opts.sizeBytes - (current?.sizeBytes ?? 0) });
    return row;
  }
  throw new AppError("CONFLICT", `${opts.path} is being written by others right now.`, { fix: "Retry the call." });
}
