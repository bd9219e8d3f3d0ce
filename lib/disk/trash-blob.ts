import type { Executor } from "@/lib/db/client";
import { diskTrash } from "@/lib/db/schema/disk";

/**
 * Queues an object for erasure in the same transaction that stops referencing it; the janitor deletes it from the
 * store once `notBefore` has passed (lib/disk/sweep-disk.ts). A rolled-back write therefore never loses bytes.
 */
export async function trashBlob(db: Executor, opts: { projectId: string; blobKey: string; notBefore?: Date }) {
  await db
    .insert(diskTrash)
    .values({ projectId: opts.projectId, blobKey: opts.blobKey, notBefore: opts.notBefore ?? new Date() })
    .onConflictDoNothing();
}
