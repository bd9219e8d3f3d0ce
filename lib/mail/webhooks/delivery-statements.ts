import { statement } from "@/lib/db/statement";

/* The delivery job's hand-written statements (lib/db/statement.ts): the success path runs once per delivery. */

export type DeliveredParams = [
  attemptId: string,
  projectId: string,
  webhookId: string,
  deliveryId: string,
  statusCode: number,
  durationMs: number,
  responseSnippet: string | null,
];

/**
 * A 2xx attempt in one statement: its log row, the delivery settled (only while still pending: a cancel that came
 * during the request stands), and the webhook's run of failures reset with `last_delivery_at`. A healthy webhook's
 * row is written at most once a second, not once a delivery: eight deliveries at a time to one endpoint would
 * otherwise queue on that row's lock until each commit, and `last_delivery_at` is shown to the second.
 */
export const recordDelivered = statement<never, DeliveredParams>(`
  with a as (
    insert into mail_webhook_attempts (id, project_id, webhook_id, delivery_id, ok, status_code, duration_ms, response_snippet)
    values ($1, $2, $3, $4, true, $5, $6, $7)
  ), d as (
    update mail_webhook_deliveries
    set status = 'delivered', attempts = attempts + 1, last_status_code = $5, last_error = null, next_attempt_at = null,
        delivered_at = now(), updated_at = now()
    where project_id = $2 and id = $4 and status = 'pending'
  )
  update mail_webhooks set last_delivery_at = now(), consecutive_failures = 0, first_failure_at = null
  where project_id = $2 and id = $3
    and (consecutive_failures <> 0 or first_failure_at is not null or last_delivery_at is null or last_delivery_at < now() - interval '1 second')`);
