import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskFiles } from "@/lib/db/schema/disk";
import { writablePath } from "@/lib/disk/file-input";
import { dropUploads } from "@/lib/disk/drop-uploads";
import { retireVersion } from "@/lib/disk/replace-file";
import { adjustUsage } from "@/lib/disk/usage";

/**
 * file_delete: the space is freed at once (usage in this transaction), links are revoked, open uploads of the path
 * dropped, and the object queued for erasure by the janitor (within minutes).
 */
export async function deleteFile(db: Executor, opts: { actor: Actor; path: string }) {
  const path = writablePath(opts.path);
  const projectId = opts.actor.projectId;
  const [file] = await db
    .select()
    .from(diskFiles)
    .where(and(eq(diskFiles.projectId, projectId), eq(diskFiles.path, path)))
    .for("update");
  if (!file) return { deleted: false, file: null };
  await db.delete(diskFiles).where(and(eq(diskFiles.projectId, projectId), eq(diskFiles.id, file.id)));
  await retireVersion(db, file);
  await dropUploads(db, { projectId, path });
  await adjustUsage(db, projectId, { bytes: -file.sizeBytes });
  return { deleted: true, file };
}
