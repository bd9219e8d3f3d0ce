import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailMessages, mailThreads, type MailThread } from "@/lib/db/schema/mail";
import { type BatchAction, type BatchItem, failed, uniqueIds } from "@/lib/mail/batch/batch-item";
import { inFlightConflict } from "@/lib/mail/deletion/delete-message";
import { eraseMessages, inFlight } from "@/lib/mail/deletion/erase-messages";
import { applyLabels, labelChange } from "@/lib/mail/labels/apply-labels";
import { threadNotFound } from "@/lib/mail/lookup/find-thread";
import { mailboxScope } from "@/lib/mail/mailboxes/mailbox-scope";
import { threadView, type ThreadView } from "@/lib/mail/threads/thread-view";

/** The live threads among these ids that the actor may touch (the named inbox, its own, or the project). */
async function scopedThreads(db: Executor, actor: Actor, ids: readonly string[], inboxId?: string): Promise<MailThread[]> {
  const { mailboxId } = await mailboxScope(db, actor, inboxId);
  const rows = await db
    .select({ thread: mailThreads })
    .from(mailThreads)
    .innerJoin(mailboxes, and(eq(mailboxes.id, mailThreads.mailboxId), isNull(mailboxes.deletedAt)))
    .where(and(eq(mailThreads.projectId, actor.projectId), inArray(mailThreads.id, [...ids]), mailboxId ? eq(mailThreads.mailboxId, mailboxId) : undefined));
  return rows.map((r) => r.thread);
}

/**
 * POST /threads/batch (REST-only): get, label, trash or delete up to 100 threads, every message of each, in one
 * transaction, with a result per id. `delete` erases a thread's messages for good; a thread with outbound mail still
 * on its way is left whole (CONFLICT for that id).
 */
export async function batchThreads(
  db: Executor,
  o: { actor: Actor; inboxId?: string; action: BatchAction; ids: readonly string[]; add: readonly string[]; remove: readonly string[] },
): Promise<BatchItem<ThreadView>[]> {
  const { projectId } = o.actor;
  const ids = uniqueIds(o.ids);
  const threads = new Map((await scopedThreads(db, o.actor, ids, o.inboxId)).map((t) => [t.id, t]));
  const present = ids.filter((id) => threads.has(id));

  if (o.action === "get") {
    return ids.map((id) => {
      const thread = threads.get(id);
      return thread ? { id, ok: true, item: threadView(thread) } : failed(id, threadNotFound(id));
    });
  }
  if (o.action === "delete") {
    const messages = present.length
      ? await db
          .select({ id: mailMessages.id, threadId: mailMessages.threadId, direction: mailMessages.direction, status: mailMessages.status })
          .from(mailMessages)
          .where(and(eq(mailMessages.projectId, projectId), inArray(mailMessages.threadId, present)))
      : [];
    const busy = new Map(messages.filter(inFlight).map((m) => [m.threadId, m.id]));
    await eraseMessages(db, { projectId, messageIds: messages.filter((m) => !busy.has(m.threadId)).map((m) => m.id) });
    return ids.map((id) => {
      const blocker = busy.get(id);
      return blocker ? failed(id, inFlightConflict(blocker)) : { id, ok: true, deleted: threads.has(id) };
    });
  }
  const change = o.action === "trash" ? { add: ["trash"], remove: [] } : labelChange(o.add, o.remove);
  await applyLabels(db, { projectId, threadIds: present, change });
  const labels = new Map(
    present.length
      ? (
          await db
            .select({ id: mailThreads.id, labels: mailThreads.labels })
            .from(mailThreads)
            .where(and(eq(mailThreads.projectId, projectId), inArray(mailThreads.id, present)))
        ).map((r) => [r.id, r.labels])
      : [],
  );
  return ids.map((id) => (threads.has(id) ? { id, ok: true, labels: labels.get(id) ?? [] } : failed(id, threadNotFound(id))));
}
