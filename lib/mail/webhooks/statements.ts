import { statement } from "@/lib/db/statement";

/* The webhook module's hand-written statements (lib/db/statement.ts). */

/**
 * A webhook's pending deliveries, cancelled, and their queued jobs removed, in one statement: what is left of a
 * deleted webhook's backlog. A job already running is not touched (its handler sees the delivery cancelled).
 */
export const cancelWebhookDeliveries = statement<{ cancelled: number }, [projectId: string, webhookId: string, jobKind: string]>(`
  with c as (
    update mail_webhook_deliveries set status = 'cancelled', updated_at = now()
    where project_id = $1 and webhook_id = $2 and status = 'pending'
    returning id
  ), j as (
    delete from jobs where kind = $3 and status = 'pending' and dedupe_key in (select 'whk:' || id from c)
    returning 1
  )
  select (select count(*) from c)::int as cancelled`);
