import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { retryAfterMs } from "@/lib/http/retry-after";
import { safeFetch } from "@/lib/http/safe-fetch";
import { takeEndpointSlot } from "@/lib/jobs/endpoint-slots";
import { defineJobKind, PermanentJobError, RetryLaterError } from "@/lib/jobs/define-job-kind";
import { callbackSigningSecrets } from "@/lib/approvals/callbacks/callback-secret";
import { signWebhook } from "@/lib/mail/webhooks/sign-webhook";
import { recordSystemAct } from "@/lib/ledger/record-system-act";

/**
 * The wait after each failed delivery: attempts at 0, +1 min, +5 min, +30 min, +2 h, +6 h, +12 h and +24 h (8 in
 * all, about 44 h 36 min from first to last), each wait lengthened by up to 10% at random. Published in README.md.
 */
export const CALLBACK_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000] as const;

const payload = z.object({
  projectId: z.string(),
  url: z.string(),
  eventId: z.string(),
  /** Unix seconds when queued. Not the signed timestamp: each attempt is signed at the moment it is sent. */
  timestamp: z.number().int(),
  body: z.string(),
});

/**
 * POSTs a `request.resolved` event to the request's callback_url, signed in the Standard Webhooks format. Every
 * attempt carries the same webhook-id (the event id, so receivers can drop repeats) and a fresh webhook-timestamp and
 * signature, so a verifier's 5-minute tolerance holds for a retry a day later. Any 2xx is delivered; anything else, a
 * timeout or a refused address is retried on `CALLBACK_RETRY_DELAYS_MS`; a 429 or 503 with `Retry-After` waits at
 * least that long (capped at the schedule's longest wait).
 *
 * A project's callbacks to one origin have at most JOBS_WEBHOOK_ENDPOINT_CONCURRENCY requests in flight on an
 * instance (lib/jobs/endpoint-slots.ts): an agent's callback_url that hangs holds that many of the webhook lane's
 * slots, not its project's whole share, and the project's webhooks and other callbacks go beside it. The origin,
 * since one host serves every path of it; per project, so another tenant's callbacks to a shared host wait on none.
 */
export const callbackJob = defineJobKind({
  kind: "approvals.callback",
  payload,
  maxAttempts: CALLBACK_RETRY_DELAYS_MS.length + 1,
  retryDelaysMs: CALLBACK_RETRY_DELAYS_MS,
  timeoutMs: 30_000,
  handler: async (p, ctx) => {
    const secrets = await callbackSigningSecrets(await getDb(), p.projectId);
    // Woken by its dedupe key, the event id (queue-callback.ts).
    const releaseSlot = takeEndpointSlot(`callback:${p.projectId}:${new URL(p.url).origin}`, p.eventId, ctx.job.kind);

    const res = await safeFetch(p.url, {
      method: "POST",
      body: p.body,
      timeoutMs: 10_000,
      maxBytes: 4096,
      signal: ctx.signal,
      headers: { "content-type": "application/json", ...signWebhook({ id: p.eventId, body: p.body, secrets }) },
    }).finally(releaseSlot);
    if (res.status >= 200 && res.status < 300) return;
    const message = `callback answered ${res.status}`;
    // 410 Gone: the receiver says it will never take this; others may recover.
    if (res.status === 410) throw new PermanentJobError(message);
    if (res.status === 429 || res.status === 503) {
      const wait = retryAfterMs(res.headers["retry-after"]);
      if (wait !== null) throw new RetryLaterError(message, wait);
    }
    throw new Error(message);
  },
  // Given up (410, or the schedule's last attempt failed): on the Ledger, where the owner looks for what happened to
  // a request. Before, only the job row knew, purged after 7 days and shown nowhere (found by helper-104).
  onFailure: async (p, ctx) => {
    const requestId = requestOf(p.body);
    await recordSystemAct(ctx.db, {
      projectId: p.projectId,
      op: "approval.callback_failed",
      subject: requestId ?? p.eventId,
      input: { url: p.url, event_id: p.eventId, attempts: ctx.job.attempts },
      output: { error: ctx.error },
    });
  },
});

/** The request a callback's body is about (queue-callback.ts writes it), if it can be read. */
function requestOf(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { data?: { request_id?: unknown } }).data?.request_id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}
