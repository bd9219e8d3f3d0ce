import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, approvalDeliveries, type ApprovalRequest } from "@/lib/db/schema/approvals";
import { sha256Hex } from "@/lib/crypto/hash";
import { randomBase62 } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { sendRequestEmail } from "@/lib/approvals/deliveries/send-request-email";
import { telegramSendJob } from "@/lib/telegram/jobs/send-request-job";

/**
 * Sends a new request to its approvers' email and Telegram channels (the owner channel is the dashboard, which
 * lists it by itself). Email goes out through the mail queue with a single-use link per channel; Telegram through a
 * job, so a Bot API hiccup is retried. `notice`: an auto_approve_notify notice, without buttons or links.
 */
export async function queueDeliveries(tx: Executor, r: ApprovalRequest, opts: { notice: boolean }) {
  if (r.approvers.length === 0) return;
  const channels = await tx
    .select()
    .from(approvalChannels)
    .where(and(eq(approvalChannels.projectId, r.projectId), inArray(approvalChannels.id, r.approvers), eq(approvalChannels.status, "active")));
  for (const c of channels) {
    if (c.kind === "owner") continue;
    const token = c.kind === "email" && !opts.notice ? randomBase62(32) : null;
    const [delivery] = await tx
      .insert(approvalDeliveries)
      .values({
        projectId: r.projectId,
        requestId: r.id,
        channelId: c.id,
        notice: opts.notice,
        tokenHash: token ? sha256Hex(token) : null,
        telegramChatId: c.telegramChatId,
      })
      .onConflictDoNothing()
      .returning();
    if (!delivery) continue;
    if (c.kind === "email") {
      // In a savepoint: an address the instance cannot reach (no relay) must not stop the request itself.
      const error = await tx
        .transaction((sp) => sendRequestEmail(sp, { request: r, channel: c, token }))
        .then(
          () => null,
          (err: Error) => err.message,
        );
      await tx
        .update(approvalDeliveries)
        .set(error ? { lastError: error.slice(0, 500), attempts: 1 } : { sentAt: new Date(), attempts: 1 })
        .where(eq(approvalDeliveries.id, delivery.id));
    } else {
      await enqueueJob(tx, telegramSendJob, { deliveryId: delivery.id }, { projectId: r.projectId, dedupeKey: `tg-send:${delivery.id}` });
    }
  }
}
