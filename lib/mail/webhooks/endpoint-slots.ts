import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { DeferJobError } from "@/lib/jobs/define-job-kind";
import { jobWakeups } from "@/lib/jobs/enqueue-job";
import { wakeParkedDeliveries } from "@/lib/mail/webhooks/statements";

/** How long one put back waits at most: a request's 10 s deadline (send-webhook.ts) and a little after it. */
const WAIT_MS = 12_000;

interface Endpoint {
  inFlight: number;
  /** Deliveries put back for this endpoint's slots: id → when (performance.now()). */
  waiting: Map<string, number>;
}
const endpoints = new Map<string, Endpoint>();

/** Waiting deliveries' jobs due now, for the next claim; returns the ones it found put back (wakeParkedDeliveries). */
async function wake(deliveryIds: string[], jobKind: string): Promise<string[]> {
  const db = await getDb();
  const rows = await wakeParkedDeliveries(
    db,
    jobKind,
    deliveryIds.map((id) => `whk:${id}`),
  );
  if (rows.length > 0) jobWakeups.notify(db, jobKind);
  return rows.map((r) => r.key.slice("whk:".length));
}

/**
 * Wakes as many waiting deliveries as the endpoint has free slots. One not found put back yet (its runner is still
 * writing it back) stays listed: its own put-back calls this again, and so does the next request that ends.
 */
function wakeWaiting(webhookId: string, jobKind: string): void {
  const endpoint = endpoints.get(webhookId);
  if (!endpoint) return;
  const now = performance.now();
  for (const [id, since] of endpoint.waiting) if (now - since > WAIT_MS) endpoint.waiting.delete(id);
  const free = env().JOBS_WEBHOOK_ENDPOINT_CONCURRENCY - endpoint.inFlight;
  if (endpoint.waiting.size === 0) {
    if (endpoint.inFlight === 0) endpoints.delete(webhookId);
    return;
  }
  if (free <= 0) return;
  const ids = [...endpoint.waiting.keys()].slice(0, free);
  wake(ids, jobKind).then(
    (woken) => {
      for (const id of woken) endpoint.waiting.delete(id);
    },
    // Best effort: a delivery not woken goes when its wait runs out.
    (err) => console.error(`[brynth] could not wake deliveries waiting for webhook ${webhookId}:`, err),
  );
}

/**
 * Takes one of the webhook's slots on this instance for a delivery's request, or throws DeferJobError when they are
 * all taken. Returns the slot's release, to call once the request has ended (whatever its outcome).
 *
 * Requests one webhook has in flight at once on this instance (JOBS_WEBHOOK_ENDPOINT_CONCURRENCY). The breaker
 * (webhook-breaker.ts) only trips after BREAKER_FAILURES requests have failed, and a hanging endpoint fails each one
 * only at its 10 s deadline: until then every delivery to it took a slot of the webhook lane and held it, up to all
 * the slots its project may take, and the project's healthy endpoints queued behind them for those 10 s.
 *
 * One over the cap is put back unattempted (DeferJobError) and woken as soon as a request to the endpoint ends, so
 * a busy endpoint that answers loses no time to it. The waiting deliveries are known to this process only: one put
 * back by an instance that then stops goes when its wait runs out, the request deadline and a little after it, by
 * which time every request that made it wait has ended.
 */
export function takeEndpointSlot(webhookId: string, deliveryId: string, jobKind: string): () => void {
  const cap = env().JOBS_WEBHOOK_ENDPOINT_CONCURRENCY;
  const endpoint = endpoints.get(webhookId) ?? { inFlight: 0, waiting: new Map<string, number>() };
  endpoints.set(webhookId, endpoint);
  endpoint.waiting.delete(deliveryId);
  if (endpoint.inFlight >= cap) {
    endpoint.waiting.set(deliveryId, performance.now());
    throw new DeferJobError(
      `not sent yet: ${cap} requests to this endpoint are in flight (JOBS_WEBHOOK_ENDPOINT_CONCURRENCY); this delivery goes when one ends`,
      WAIT_MS * (1 + Math.random() / 4),
      () => wakeWaiting(webhookId, jobKind),
    );
  }
  endpoint.inFlight++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    endpoint.inFlight--;
    wakeWaiting(webhookId, jobKind);
  };
}
