import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { afterCommit } from "@/lib/db/transaction";
import { mailMessages } from "@/lib/db/schema/mail";
import { lockQuarantined } from "@/lib/mail/quarantine/lock-quarantined";
import { rebuildThreadSummary } from "@/lib/mail/quarantine/rebuild-thread-summary";

export const DELETE_OP = "mail.quarantine_delete";

/**
 * The owner deletes a quarantined message for good: the row and its attachments (cascade), the thread's summary
 * rebuilt (or the thread gone with its last message), and after commit its bytes — the raw message and any
 * attachment no event's copy (`evt_…/name` in disk_attachments) still points at.
 */
export async function deleteQuarantined(tx: Executor, opts: { actor: Actor; messageId: string }) {
  const message = await lockQuarantined(tx, opts.actor, opts.messageId);
  const { projectId } = message;
  const attachmentKeys = await query<{ blobKey: string }>(
    tx,
    sql`select a.blob_key from mail_attachments a where a.project_id = ${projectId} and a.message_id = ${message.id}
      and not exists (select 1 from disk_attachments d where d.project_id = ${projectId} and d.blob_key = a.blob_key)`,
  );
  await tx.delete(mailMessages).where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, message.id)));
  const threadKept = await rebuildThreadSummary(tx, { projectId, threadId: message.threadId });
  const keys = [message.rawBlobKey, ...attachmentKeys.map((a) => a.blobKey)].filter((k): k is string => !!k);
  afterCommit(tx, async () => {
    const store = await getBlobStore();
    await Promise.all(keys.map((k) => store.delete(k)));
  });
  return { id: message.id, mailboxId: message.mailboxId, threadId: message.threadId, threadDeleted: !threadKept, category: message.category };
}
