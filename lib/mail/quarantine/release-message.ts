import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { applyLabels } from "@/lib/mail/labels/apply-labels";
import { lockQuarantined } from "@/lib/mail/quarantine/lock-quarantined";
import { emitReleasedEmailEvent } from "@/lib/mail/quarantine/released-email-event";

export const RELEASE_OP = "mail.quarantine_release";

/**
 * The owner releases a quarantined message: it becomes normal mail, loses its category label, its thread shows in
 * default lists again, and `message.received` goes out as if it had just arrived (webhooks and the stream learn of
 * it only now), with the project
 * address's `email.received` event when blocking had kept it back. It was kept on purpose, so this is the owner's
 * decision alone (design §1.5 N1).
 */
export async function releaseMessage(tx: Executor, opts: { actor: Actor; messageId: string }) {
  const message = await lockQuarantined(tx, opts.actor, opts.messageId);
  const was = message.category;
  // Category first: applyLabels then drops the category's label and recomputes the thread's union and
  // visible_at (lib/mail/labels), which counts only normal mail.
  await tx
    .update(mailMessages)
    .set({ category: "normal", blocked: false, updatedAt: new Date() })
    .where(and(eq(mailMessages.projectId, message.projectId), eq(mailMessages.id, message.id)));
  await applyLabels(tx, { projectId: message.projectId, messageIds: [message.id], change: { add: [], remove: [was] } });
  const labels = message.labels.filter((l) => l !== was).sort();
  // From the row as it was: only mail that was blocked still owes its email.received.
  const eventId = await emitReleasedEmailEvent(tx, message);
  await emitMailEvent(tx, {
    projectId: message.projectId,
    mailboxId: message.mailboxId,
    type: "message.received",
    messageId: message.id,
    threadId: message.threadId,
    summary: { from: message.fromAddress, to: message.to, subject: message.subject, preview: message.preview, labels },
  });
  return { id: message.id, mailboxId: message.mailboxId, threadId: message.threadId, releasedFrom: was, labels, eventId };
}
