import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailBatches, mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";

/**
 * One message of the project for the Outbound detail view: the message row, its attachments, the mailbox it was
 * sent from, and the approval request that holds (or held) it — through its batch (email_send under the policy) or
 * its draft (a mailbox whose send policy is Approval). Null when the id is not this project's.
 */
export async function getOutboundMessage(db: Executor, o: { projectId: string; messageId: string }) {
  const [message] = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, o.projectId), eq(mailMessages.id, o.messageId)));
  if (!message) return null;
  const [attachments, mailbox, batch, draft] = await Promise.all([
    db
      .select({
        id: mailAttachments.id,
        name: mailAttachments.name,
        contentType: mailAttachments.contentType,
        sizeBytes: mailAttachments.sizeBytes,
        inline: mailAttachments.inline,
      })
      .from(mailAttachments)
      .where(and(eq(mailAttachments.projectId, o.projectId), eq(mailAttachments.messageId, message.id)))
      .orderBy(asc(mailAttachments.name)),
    db
      .select({ address: mailboxes.address, deletedAt: mailboxes.deletedAt })
      .from(mailboxes)
      .where(eq(mailboxes.id, message.mailboxId))
      .then((r) => r[0] ?? null),
    message.batchId
      ? db
          .select({ requestId: mailBatches.requestId })
          .from(mailBatches)
          .where(and(eq(mailBatches.projectId, o.projectId), eq(mailBatches.id, message.batchId)))
          .then((r) => r[0] ?? null)
      : null,
    message.draftId
      ? db
          .select({ requestId: mailDrafts.approvalRequestId })
          .from(mailDrafts)
          .where(and(eq(mailDrafts.projectId, o.projectId), eq(mailDrafts.id, message.draftId)))
          .then((r) => r[0] ?? null)
      : null,
  ]);
  return { message, attachments, mailbox, requestId: batch?.requestId ?? draft?.requestId ?? null };
}
export type OutboundMessage = NonNullable<Awaited<ReturnType<typeof getOutboundMessage>>>;
