import { statement } from "@/lib/db/statement";

/* The mail outbox's hand-written statement (lib/db/statement.ts): one per stored message on the inbound path. */

export type MailEventRow = [
  id: string,
  projectId: string,
  mailboxId: string | null,
  type: string,
  messageId: string | null,
  threadId: string | null,
  draftId: string | null,
  summary: string,
];

/** The event row alone: for a project known to have no live webhook (lib/mail/webhooks/webhook-presence.ts). */
export const insertMailEventOnly = statement<never, MailEventRow>(`
  insert into mail_events (id, project_id, mailbox_id, type, message_id, thread_id, draft_id, summary)
  values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`);

export type InsertMailEventParams = [...MailEventRow, webhookJobKind: string, webhookMaxAttempts: number];

/**
 * The event row and its webhook fan-out (design §2.9, D10) in ONE statement, so an event costs the inbound path
 * one round trip whether or not the project has webhooks: a delivery (`wdl_…`) for every enabled, live webhook of
 * the project that wants the type and watches the mailbox (or every mailbox), and a `mail.webhook` job for each
 * (dedupe key `whk:<delivery id>`). All of it commits or rolls back with the caller's transaction. Returns how many
 * jobs were queued, so the runners are woken only when there are some. The ids are made here, since the number of
 * rows is known only to the statement: a v4 UUID's 122 random bits, as hex.
 */
export const insertMailEvent = statement<{ jobs: number }, InsertMailEventParams>(`
  with e as (
    insert into mail_events (id, project_id, mailbox_id, type, message_id, thread_id, draft_id, summary)
    values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
  ), d as (
    insert into mail_webhook_deliveries (id, project_id, webhook_id, event_id, event_type)
    select 'wdl_' || replace(gen_random_uuid()::text, '-', ''), w.project_id, w.id, $1, $4
    from mail_webhooks w
    where w.project_id = $2 and w.enabled and w.deleted_at is null
      and w.event_types ? $4::text
      and (w.inbox_ids = '[]'::jsonb or w.inbox_ids ? $3::text)
    returning id, project_id
  ), j as (
    insert into jobs (id, project_id, kind, payload, max_attempts, dedupe_key)
    select 'job_' || replace(gen_random_uuid()::text, '-', ''), d.project_id, $9, jsonb_build_object('delivery_id', d.id), $10::int, 'whk:' || d.id
    from d
    returning 1
  )
  select count(*)::int as jobs from j`);
