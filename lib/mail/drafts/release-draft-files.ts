import type { Executor } from "@/lib/db/client";
import { trashBlob } from "@/lib/disk/trash-blob";
import { unreferencedBlobs } from "@/lib/mail/deletion/statements";

/**
 * After a draft's attachment rows are gone (the draft deleted, files removed by update_draft): the blobs nothing
 * else points at go to the disk trash, in the same transaction. A forward's kept originals and a sent message's
 * files are still referenced, so they stay.
 */
export async function releaseDraftFiles(tx: Executor, projectId: string, blobKeys: readonly string[]): Promise<void> {
  if (blobKeys.length === 0) return;
  for (const { blobKey } of await unreferencedBlobs(tx, projectId, [...new Set(blobKeys)])) await trashBlob(tx, { projectId, blobKey });
}
