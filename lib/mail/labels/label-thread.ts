import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailThreads } from "@/lib/db/schema/mail";
import { findThread } from "@/lib/mail/lookup/find-thread";
import { applyLabels, labelChange } from "@/lib/mail/labels/apply-labels";

/** update_thread (and the dashboard's label editor): the change applies to every message of the thread. */
export async function labelThread(
  db: Executor,
  o: { actor: Actor; threadId: string; inboxId?: string; add: readonly string[]; remove: readonly string[] },
): Promise<{ threadId: string; labels: string[] }> {
  const thread = await findThread(db, o.actor, o.threadId, o.inboxId);
  await applyLabels(db, { projectId: o.actor.projectId, threadIds: [thread.id], change: labelChange(o.add, o.remove) });
  return { threadId: thread.id, labels: await threadLabels(db, o.actor.projectId, thread.id) };
}

export async function threadLabels(db: Executor, projectId: string, threadId: string): Promise<string[]> {
  const [row] = await db
    .select({ labels: mailThreads.labels })
    .from(mailThreads)
    .where(and(eq(mailThreads.projectId, projectId), eq(mailThreads.id, threadId)));
  return row?.labels ?? [];
}
