import { z } from "zod";
import { Webhook } from "standardwebhooks";
import { getDb } from "@/lib/db/client";
import { safeFetch } from "@/lib/http/safe-fetch";
import { defineJobKind, PermanentJobError } from "@/lib/jobs/define-job-kind";
import { callbackSecret } from "@/lib/approvals/callbacks/callback-secret";

const payload = z.object({
  projectId: z.string(),
  url: z.string(),
  eventId: z.string(),
  /** Unix seconds of the first attempt: retries resend the same signed message. */
  timestamp: z.number().int(),
  body: z.string(),
});

/**
 * POSTs a `request.resolved` event to the request's callback_url, signed in the Standard Webhooks format
 * (webhook-id = the event id, so receivers can drop repeats). Any 2xx is delivered; anything else, a timeout or a
 * refused address is retried with backoff (about 10 s, 20 s, 40 s … up to 8 attempts).
 */
export const callbackJob = defineJobKind({
  kind: "approvals.callback",
  payload,
  maxAttempts: 8,
  retryBaseMs: 10_000,
  timeoutMs: 30_000,
  handler: async (p) => {
    const secret = await callbackSecret(await getDb(), p.projectId);
    const signature = new Webhook(secret).sign(p.eventId, new Date(p.timestamp * 1000), p.body);
    const res = await safeFetch(p.url, {
      method: "POST",
      body: p.body,
      timeoutMs: 10_000,
      maxBytes: 4096,
      headers: {
        "content-type": "application/json",
        "webhook-id": p.eventId,
        "webhook-timestamp": String(p.timestamp),
        "webhook-signature": signature,
      },
    });
    if (res.status >= 200 && res.status < 300) return;
    // 410 Gone: the receiver says it will never take this; others may recover.
    if (res.status === 410) throw new PermanentJobError(`callback answered ${res.status}`);
    throw new Error(`callback answered ${res.status}`);
  },
});
