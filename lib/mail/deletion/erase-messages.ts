import type { Executor } from "@/lib/db/client";
import { trashBlob } from "@/lib/disk/trash-blob";
import { attachmentBlobs, deleteMessageRows, forgetParents, lockMessages, unreferencedBlobs } from "@/lib/mail/deletion/statements";
import { lockThreads } from "@/lib/mail/labels/statements";
import { rebuildThreadSummary } from "@/lib/mail/quarantine/rebuild-thread-summary";

/** Outbound mail still on its way: erasing it would pull the row from under the delivery job or the approval. */
export const inFlight = (m: { direction: string; status: string }) => m.direction === "outbound" && ["pending", "queued", "sending"].includes(m.status);

/**
 * Erases messages for good, in the caller's transaction: the rows and their attachment rows (cascade), each touched
 * thread's summary rebuilt from what remains (a thread left empty is removed), and the bytes queued for the disk
 * janitor (trashBlob) only when no other row still points at them, so a rollback never loses bytes. The caller has
 * checked scope and that none is in flight. Ids already gone are skipped: erasing is idempotent.
 */
export async function eraseMessages(tx: Executor, o: { projectId: string; messageIds: readonly string[] }) {
  const { projectId } = o;
  if (o.messageIds.length === 0) return { erased: [] as string[], threadsDeleted: [] as string[] };
  const rows = await lockMessages(tx, projectId, o.messageIds);
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return { erased: [], threadsDeleted: [] };
  const blobs = [...rows.flatMap((r) => (r.rawBlobKey ? [r.rawBlobKey] : [])), ...(await attachmentBlobs(tx, projectId, ids)).map((a) => a.blobKey)];
  await forgetParents(tx, projectId, ids);
  await deleteMessageRows(tx, projectId, ids);
  // Every message write first (forgetParents touches replies too), then the threads, locked together in the order
  // applyLabels locks them: rebuilt one by one in another order, two erasures, or an erasure and a label change,
  // could deadlock.
  const threads = [...new Set(rows.map((r) => r.threadId))];
  await lockThreads(tx, projectId, threads);
  const threadsDeleted: string[] = [];
  for (const threadId of threads) {
    if (!(await rebuildThreadSummary(tx, { projectId, threadId }))) threadsDeleted.push(threadId);
  }
  if (blobs.length > 0) for (const { blobKey } of await unreferencedBlobs(tx, projectId, [...new Set(blobs)])) await trashBlob(tx, { projectId, blobKey });
  return { erased: ids, threadsDeleted };
}
