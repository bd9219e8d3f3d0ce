import { z } from "zod";
import { defineJobKind } from "@/lib/jobs/define-job-kind";
import { failOpenDelivery, sendWebhook } from "@/lib/mail/webhooks/send-webhook";

/**
 * The wait after each failed attempt, Svix-like (design §2.9): a retry at once, then 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h — 9 attempts in all, about 27 h 35 min from the first to the last, each wait lengthened by up to 10%
 * at random; a 429's or 503's Retry-After waits at least that long, up to the longest of them (send-webhook.ts).
 * Published in README.md.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/**
 * Delivers one `mail_webhook_deliveries` row (`wdl_…`) to its webhook (send-webhook.ts). Queued by `emitMailEvent`
 * in the event's own transaction (dedupe key `whk:<delivery id>`), so a delivery exists exactly when its event
 * does; runs in the runner's webhook lane, so slow endpoints never hold the slots outbound mail needs.
 */
export const webhookDeliveryJob = defineJobKind({
  kind: "mail.webhook",
  payload: z.object({ delivery_id: z.string() }),
  maxAttempts: WEBHOOK_RETRY_DELAYS_MS.length + 1,
  retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
  // The request has its own 10 s deadline; the rest is a few short statements.
  timeoutMs: 30_000,
  // A delivery's success is one short write: committed with the others finishing at the same moment.
  groupFinish: true,
  handler: (p, ctx) =>
    sendWebhook(p.delivery_id, {
      attempt: ctx.attempt,
      lastAttempt: ctx.lastAttempt,
      signal: ctx.signal,
      retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
      jobKind: ctx.job.kind,
    }),
  onFailure: (p, ctx) => failOpenDelivery(ctx.db, { projectId: ctx.job.projectId ?? "", deliveryId: p.delivery_id, error: ctx.error }),
});
