import { z } from "zod";
import { env } from "@/lib/env";
import { defineJobKind } from "@/lib/jobs/define-job-kind";
import { deliverMessage, failDelivery, legacyDelivery } from "@/lib/mail/outbound/deliver-message";

/**
 * Delivers one delivery (a local mailbox, or one relay transaction) of an outbound message; retried with backoff;
 * its final failure fails the delivery (and `email.failed` for an email_send message), unless its last attempt was
 * cut off inside the relay transaction (send_unknown, as on any attempt). `{message_id}` is the
 * payload of jobs queued before deliveries existed: they still run (legacyDelivery).
 */
export const deliverMessageJob = defineJobKind({
  kind: "mail.deliver",
  payload: z.object({ delivery_id: z.string().optional(), message_id: z.string().optional() }),
  maxAttempts: () => env().MAIL_DELIVERY_ATTEMPTS,
  retryBaseMs: () => env().MAIL_RETRY_BASE_SECONDS * 1000,
  retryMaxMs: 3_600_000,
  timeoutMs: 120_000,
  // Its final write is a few small statements after the SMTP transaction: sharing the commit with the deliveries
  // finishing beside it (finish-group.ts) saves a sixth of a scheduled send's CPU (bench/mail-scheduled.ts).
  groupFinish: true,
  handler: (payload, ctx) => deliverMessage(payload, ctx),
  onFailure: async (payload, ctx) => {
    const projectId = ctx.job.projectId ?? "";
    const deliveryId = payload.delivery_id ?? (await legacyDelivery(ctx.db, projectId, payload.message_id ?? ""));
    if (deliveryId) await failDelivery(ctx.db, { projectId, deliveryId, error: ctx.error, interrupted: ctx.interrupted });
  },
});
