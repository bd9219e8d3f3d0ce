import { and, eq, isNotNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalDeliveries, type ApprovalRequest } from "@/lib/db/schema/approvals";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { telegramCloseJob } from "@/lib/telegram/jobs/close-request-job";

/** With the decision: have the request's Telegram messages edited to show it. Email links simply stop working. */
export async function queueClose(tx: Executor, r: ApprovalRequest) {
  const [telegram] = await tx
    .select({ id: approvalDeliveries.id })
    .from(approvalDeliveries)
    .where(and(eq(approvalDeliveries.requestId, r.id), isNotNull(approvalDeliveries.telegramChatId), eq(approvalDeliveries.notice, false)))
    .limit(1);
  if (telegram) {
    await enqueueJob(tx, telegramCloseJob, { projectId: r.projectId, requestId: r.id }, { projectId: r.projectId, dedupeKey: `tg-close:${r.id}` });
  }
}
