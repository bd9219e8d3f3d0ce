import type { Executor } from "@/lib/db/client";
import { diskTrash } from "@/lib/db/schema/disk";

/**
 * How long an object stays in the store after the row that named it went (a file deleted or replaced, a message
 * erased): readers find the row first and fetch the bytes after, without a lock (file_get, a download, a send
 * reading its attachments), and one that found the old row gets its bytes rather than a "missing from the blob
 * store" 503. Longer than a download URL lives.
 */
export const READ_GRACE_MS = 15 * 60_000;

/**
 * Queues an object for erasure in the same transaction that stops referencing it; the janitor deletes it from the
 * store once `notBefore` has passed (lib/disk/sweep-disk.ts), by default READ_GRACE_MS from now. A rolled-back
 * write therefore never loses bytes, nor does a read that raced the write.
 */
export async function trashBlob(db: Executor, opts: { projectId: string; blobKey: string; notBefore?: Date }) {
  await db
    .insert(diskTrash)
    .values({ projectId: opts.projectId, blobKey: opts.blobKey, notBefore: opts.notBefore ?? new Date(Date.now() + READ_GRACE_MS) })
    .onConflictDoNothing();
}
