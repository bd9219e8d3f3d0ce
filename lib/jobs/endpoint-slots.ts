import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { DeferJobError } from "@/lib/jobs/define-job-kind";
import { jobWakeups } from "@/lib/jobs/enqueue-job";
import { wakeParkedJobs } from "@/lib/jobs/statements";

/** How long one put back waits at most: a request's 10 s deadline (send-webhook.ts, callback-job.ts) and a little after it. */
const WAIT_MS = 12_000;

interface Endpoint {
  inFlight: number;
  /** Jobs put back for this endpoint's slots: dedupe key → when (performance.now()). */
  waiting: Map<string, number>;
}
const endpoints = new Map<string, Endpoint>();

/** Waiting jobs due now, for the next claim; returns the keys of the ones it found put back (wakeParkedJobs). */
async function wake(jobKeys: string[], jobKind: string): Promise<string[]> {
  const db = await getDb();
  const rows = await wakeParkedJobs(db, jobKind, jobKeys);
  if (rows.length > 0) jobWakeups.notify(db, jobKind);
  return rows.map((r) => r.key);
}

/**
 * Wakes as many waiting jobs as the endpoint has free slots. One not found put back yet (its runner is still
 * writing it back) stays listed: its own put-back calls this again, and so does the next request that ends.
 */
function wakeWaiting(endpointKey: string, jobKind: string): void {
  const endpoint = endpoints.get(endpointKey);
  if (!endpoint) return;
  const now = performance.now();
  for (const [key, since] of endpoint.waiting) if (now - since > WAIT_MS) endpoint.waiting.delete(key);
  const free = env().JOBS_WEBHOOK_ENDPOINT_CONCURRENCY - endpoint.inFlight;
  if (endpoint.waiting.size === 0) {
    if (endpoint.inFlight === 0) endpoints.delete(endpointKey);
    return;
  }
  if (free <= 0) return;
  const keys = [...endpoint.waiting.keys()].slice(0, free);
  wake(keys, jobKind).then(
    (woken) => {
      for (const key of woken) endpoint.waiting.delete(key);
    },
    // Best effort: a job not woken goes when its wait runs out.
    (err) => console.error(`[brynth] could not wake jobs waiting for ${endpointKey}:`, err),
  );
}

/**
 * Takes one of an endpoint's slots on this instance for a job's request, or throws DeferJobError when they are all
 * taken. Returns the slot's release, to call once the request has ended (whatever its outcome). `endpointKey` names
 * the endpoint (a webhook, a project's callback origin); `jobKey` is the job's dedupe key, by which it is woken.
 *
 * Requests one endpoint has in flight at once on this instance (JOBS_WEBHOOK_ENDPOINT_CONCURRENCY). An endpoint
 * that hangs fails each request only at its 10 s deadline (a webhook's breaker, webhook-breaker.ts, trips after
 * BREAKER_FAILURES of them): until then every job for it took a slot of the webhook lane and held it, up to all the
 * slots its project may take, and the project's healthy endpoints queued behind them for those 10 s.
 *
 * One over the cap is put back unattempted (DeferJobError) and woken as soon as a request to the endpoint ends, so
 * a busy endpoint that answers loses no time to it. The waiting jobs are known to this process only: one put back
 * by an instance that then stops goes when its wait runs out, the request deadline and a little after it, by which
 * time every request that made it wait has ended.
 */
export function takeEndpointSlot(endpointKey: string, jobKey: string, jobKind: string): () => void {
  const cap = env().JOBS_WEBHOOK_ENDPOINT_CONCURRENCY;
  const endpoint = endpoints.get(endpointKey) ?? { inFlight: 0, waiting: new Map<string, number>() };
  endpoints.set(endpointKey, endpoint);
  endpoint.waiting.delete(jobKey);
  if (endpoint.inFlight >= cap) {
    endpoint.waiting.set(jobKey, performance.now());
    throw new DeferJobError(
      `not sent yet: ${cap} requests to this endpoint are in flight (JOBS_WEBHOOK_ENDPOINT_CONCURRENCY); this goes when one ends`,
      WAIT_MS * (1 + Math.random() / 4),
      () => wakeWaiting(endpointKey, jobKind),
    );
  }
  endpoint.inFlight++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    endpoint.inFlight--;
    wakeWaiting(endpointKey, jobKind);
  };
}
