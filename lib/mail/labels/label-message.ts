import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { findMessage, messageNotFound } from "@/lib/mail/lookup/find-message";
import { applyLabels, labelChange } from "@/lib/mail/labels/apply-labels";

/** update_message: one message's labels; its thread's union and visibility follow in the same transaction. */
export async function labelMessage(
  db: Executor,
  o: { actor: Actor; inboxId: string; messageId: string; add: readonly string[]; remove: readonly string[] },
): Promise<{ messageId: string; threadId: string; labels: string[] }> {
  const message = await findMessage(db, o.actor, o.inboxId, o.messageId);
  await applyLabels(db, { projectId: o.actor.projectId, messageIds: [message.id], change: labelChange(o.add, o.remove) });
  const [row] = await db
    .select({ labels: mailMessages.labels })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, o.actor.projectId), eq(mailMessages.id, message.id)));
  // Erased (REST delete) between the lookup and the change: the same answer as a message that was never there.
  if (!row) throw messageNotFound(o.messageId);
  return { messageId: message.id, threadId: message.threadId, labels: row.labels };
}
