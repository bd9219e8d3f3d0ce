import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { mailBatches, mailMessages } from "@/lib/db/schema/mail";
import { dayPeriod, monthPeriod } from "@/lib/mail/outbound/reserve-quota";
import { startDeliveries } from "@/lib/mail/outbound/queue-message";
import { stableJson } from "@/lib/json/stable-json";
import { emailAction } from "@/lib/approvals/email/email-action";
import { applyLabels } from "@/lib/mail/labels/apply-labels";

/**
 * With the decision on an email_send request, in the same transaction: approved → the held messages are queued
 * for delivery ("once approved the messages go out on their own"), but only if the batch is still exactly what the
 * person saw; anything else → the messages are cancelled and their quota given back. Either way they lose the
 * `pending_approval` label and send_status they were held with: released ones are `sent` mail on its way (`queued`),
 * the others say why they never went.
 */
export async function settleEmailBatch(tx: Executor, r: ApprovalRequest): Promise<"released" | "cancelled" | "none"> {
  const batchId = (r.payload as { batch_id?: string } | null)?.batch_id;
  if (!batchId) return "none";
  const [batch] = await tx
    .select()
    .from(mailBatches)
    .where(and(eq(mailBatches.id, batchId), eq(mailBatches.projectId, r.projectId)));
  if (batch?.status !== "pending") return "none";
  const unchanged = stableJson(await emailAction(tx, batchId)) === stableJson(r.payload);
  if (r.status === "approved" && unchanged) {
    const released = await tx
      .update(mailMessages)
      .set({ status: "queued", sendStatus: "queued" })
      .where(and(eq(mailMessages.batchId, batchId), eq(mailMessages.status, "pending")))
      .returning({ id: mailMessages.id });
    const messageIds = released.map((m) => m.id);
    await applyLabels(tx, { projectId: r.projectId, change: { add: ["sent"], remove: ["pending_approval"] }, messageIds });
    await startDeliveries(tx, { projectId: r.projectId, messageIds });
    await tx.update(mailBatches).set({ status: "queued", updatedAt: new Date() }).where(eq(mailBatches.id, batchId));
    return "released";
  }
  if (r.status === "approved") console.error(`[brynth] batch ${batchId} changed after it was shown for approval; cancelled`);
  const cancelled = await tx
    .update(mailMessages)
    .set({
      status: "cancelled",
      sendStatus: "cancelled",
      sendReason: `not sent: ${r.status === "approved" ? "the mail changed after it was approved" : `the request was ${r.status}`}`,
    })
    .where(and(eq(mailMessages.batchId, batchId), eq(mailMessages.status, "pending")))
    .returning({ id: mailMessages.id });
  await applyLabels(tx, { projectId: r.projectId, change: { add: [], remove: ["pending_approval"] }, messageIds: cancelled.map((m) => m.id) });
  await tx.update(mailBatches).set({ status: "cancelled", updatedAt: new Date() }).where(eq(mailBatches.id, batchId));
  // The quota was counted when the batch was held; messages that never go out give it back.
  for (const period of [dayPeriod(batch.createdAt), monthPeriod(batch.createdAt)]) {
    await tx.execute(sql`update mail_quota set used = greatest(0, used - ${cancelled.length}) where project_id = ${r.projectId} and period = ${period}`);
  }
  return "cancelled";
}
