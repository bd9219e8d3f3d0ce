import { z } from "zod";
import { env } from "@/lib/env";
import { defineJobKind } from "@/lib/jobs/define-job-kind";
import { deliverMessage } from "@/lib/mail/outbound/deliver-message";
import { failMessage } from "@/lib/mail/outbound/fail-message";

/** Delivers one outbound message; retried with backoff; its final failure is `email.failed`. */
export const deliverMessageJob = defineJobKind({
  kind: "mail.deliver",
  payload: z.object({ message_id: z.string() }),
  maxAttempts: () => env().MAIL_DELIVERY_ATTEMPTS,
  retryBaseMs: () => env().MAIL_RETRY_BASE_SECONDS * 1000,
  retryMaxMs: 3_600_000,
  timeoutMs: 120_000,
  handler: (payload, ctx) => deliverMessage(payload.message_id, ctx),
  onFailure: (payload, ctx) =>
    failMessage(ctx.db, { projectId: ctx.job.projectId ?? "", messageId: payload.message_id, error: ctx.error, attempts: ctx.job.attempts }),
});
