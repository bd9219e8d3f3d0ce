import { and, eq, isNotNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { withdrawRequest } from "@/lib/approvals/withdraw-request";
import type { Executor } from "@/lib/db/client";
import { mailBatches, mailMessages, type Mailbox } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";

/**
 * With delete_inbox, in its transaction: nothing held for approval goes out from the deleted address (which is free
 * for a new inbox, of any project, at once). The approval requests of its held drafts and of the email_send batches
 * queued from it are withdrawn, so the owner is not asked to approve a send that can no longer happen, and their
 * settle makes the drafts `rejected` with the reason and cancels the batches, giving their quota back.
 */
export async function withdrawHeldSends(tx: Executor, actor: Actor, mailbox: Mailbox): Promise<void> {
  const drafts = await tx
    .select({ requestId: mailDrafts.approvalRequestId })
    .from(mailDrafts)
    .where(
      and(
        eq(mailDrafts.projectId, mailbox.projectId),
        eq(mailDrafts.mailboxId, mailbox.id),
        eq(mailDrafts.sendStatus, "pending_approval"),
        isNotNull(mailDrafts.approvalRequestId),
      ),
    );
  const batches = await tx
    .selectDistinct({ requestId: mailBatches.requestId })
    .from(mailBatches)
    .innerJoin(mailMessages, eq(mailMessages.batchId, mailBatches.id))
    .where(
      and(
        eq(mailBatches.projectId, mailbox.projectId),
        eq(mailBatches.status, "pending"),
        isNotNull(mailBatches.requestId),
        eq(mailMessages.mailboxId, mailbox.id),
      ),
    );
  const why = `inbox ${mailbox.address} was deleted before a decision.`;
  for (const { requestId } of [...drafts, ...batches]) {
    if (requestId) await withdrawRequest(tx, { actor, requestId, why });
  }
}
