import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { findThread } from "@/lib/mail/lookup/find-thread";
import { applyLabels } from "@/lib/mail/labels/apply-labels";
import { threadLabels } from "@/lib/mail/labels/label-thread";

/**
 * delete_thread over MCP (design D15): the thread goes to the trash, every message labelled `trash`, so it leaves
 * default lists. Trashing a thread already there changes nothing and succeeds: deletes are idempotent. Permanent
 * deletion is REST's DELETE of a message (or the batch `delete`).
 */
export async function trashThread(db: Executor, o: { actor: Actor; threadId: string; inboxId?: string }): Promise<{ threadId: string; labels: string[] }> {
  const thread = await findThread(db, o.actor, o.threadId, o.inboxId);
  await applyLabels(db, { projectId: o.actor.projectId, threadIds: [thread.id], change: { add: ["trash"], remove: [] } });
  return { threadId: thread.id, labels: await threadLabels(db, o.actor.projectId, thread.id) };
}
