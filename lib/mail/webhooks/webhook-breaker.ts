import type { Executor } from "@/lib/db/client";
import type { MailWebhook } from "@/lib/db/schema/mail-webhooks";
import { statement } from "@/lib/db/statement";
import { DeferJobError } from "@/lib/jobs/define-job-kind";
import { jobWakeups } from "@/lib/jobs/enqueue-job";

/**
 * An endpoint that failed this many attempts in a row is sent one request at a time (a probe) until one succeeds:
 * its other deliveries wait without a request or an attempt counted, instead of each holding a slot of the webhook
 * lane for up to its 10 s deadline while the project's healthy endpoints queue behind them.
 */
export const BREAKER_FAILURES = 5;
/** How long a probe holds the turn: its request's 10 s deadline and a pause after it. */
const PROBE_TURN_S = 15;
/** A waiting delivery comes back after as long as the endpoint has been failing, within these bounds (+ 0-50 %). */
const WAIT_MIN_S = 15;
const WAIT_MAX_S = 3600;

/**
 * In one round trip: takes the webhook's turn if it is failing and no probe holds it (the condition is on the row
 * itself, so of two deliveries racing for it the second re-reads it after the first's update and is refused), or
 * else, while it is failing, sets the delivery's `next_attempt_at` to when it comes back. `probe`: this delivery is
 * the request; `wait`: it is not, and waits `wait_ms`; neither: the webhook is not failing (any more).
 */
const takeTurn = statement<
  { probe: boolean; wait: boolean; waitMs: number },
  [projectId: string, webhookId: string, failures: number, turnS: number, minS: number, maxS: number, deliveryId: string]
>(`
  with w as (
    select consecutive_failures >= $3 as failing, first_failure_at from mail_webhooks where project_id = $1 and id = $2
  ), taken as (
    update mail_webhooks set probe_until = now() + make_interval(secs => $4)
    where project_id = $1 and id = $2 and consecutive_failures >= $3 and (probe_until is null or probe_until <= now())
    returning 1
  ), verdict as (
    select exists (select 1 from taken) as probe, coalesce((select failing from w), false) as failing,
      least(greatest(extract(epoch from now() - coalesce((select first_failure_at from w), now())), $5), $6) * (1 + random() / 2) as wait_s
  ), waiting as (
    update mail_webhook_deliveries d set next_attempt_at = now() + make_interval(secs => v.wait_s), updated_at = now()
    from verdict v
    where v.failing and not v.probe and d.project_id = $1 and d.id = $7 and d.status = 'pending'
  )
  select probe, failing and not probe as wait, (wait_s * 1000)::float8 as wait_ms from verdict`);

/** A recovered webhook's waiting deliveries (their jobs, parked) due now, for the next claim to take. */
const wakeWaiting = statement<never, [projectId: string, webhookId: string, jobKind: string]>(`
  update jobs set run_at = now(), updated_at = now()
  where kind = $3 and status = 'pending' and parked and dedupe_key in (
    select 'whk:' || id from mail_webhook_deliveries where project_id = $1 and webhook_id = $2 and status = 'pending'
  )`);

/**
 * Before a request to `webhook`: true when it goes as the failing endpoint's probe (a success then calls
 * webhookRecovered), false when the endpoint is healthy; throws DeferJobError when another delivery holds the turn.
 * A healthy webhook (as read with the delivery) costs nothing here.
 */
export async function takeWebhookTurn(db: Executor, webhook: MailWebhook, deliveryId: string): Promise<boolean> {
  if (webhook.consecutiveFailures < BREAKER_FAILURES) return false;
  const [turn] = await takeTurn(db, webhook.projectId, webhook.id, BREAKER_FAILURES, PROBE_TURN_S, WAIT_MIN_S, WAIT_MAX_S, deliveryId);
  if (!turn?.wait) return turn?.probe ?? false;
  const seconds = Math.round(turn.waitMs / 1000);
  throw new DeferJobError(
    `not sent: the endpoint failed ${BREAKER_FAILURES} or more attempts in a row, so it gets one request at a time until one succeeds; this delivery waits ${seconds} s`,
    turn.waitMs,
  );
}

/**
 * The probe succeeded, or the webhook was given another URL (update-webhook.ts): every delivery of the webhook still
 * waiting, for its turn or for a retry after a failure, goes now, and the runners are woken to take them.
 */
export async function webhookRecovered(tx: Executor, webhook: MailWebhook, jobKind: string): Promise<void> {
  await wakeWaiting(tx, webhook.projectId, webhook.id, jobKind);
  jobWakeups.notify(tx, jobKind);
}
