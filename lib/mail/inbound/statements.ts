import { statement } from "@/lib/db/statement";

/*
 * The mail store's hand-written statements (lib/db/statement.ts), for the per-message writes of inbound mail:
 * prepared text, since building them with drizzle costs more CPU than the database spends on them.
 */

/** `list || additions`, first occurrence kept, in order, at most 50 entries. */
const mergeCapped = (column: string, param: string) => `(
    select coalesce(jsonb_agg(v order by o), '[]'::jsonb)
    from (select v, min(o) as o from jsonb_array_elements_text(${column} || ${param}::jsonb) with ordinality as e(v, o)
          group by v order by min(o) limit 50) s)`;

export type AddToThreadParams = [
  projectId: string,
  threadId: string,
  at: string,
  messageId: string,
  preview: string | null,
  senders: string,
  recipients: string,
  inbound: boolean,
  sizeBytes: number,
  attachmentCount: number,
  labels: string,
  visible: boolean,
];

/**
 * One message added to an existing thread's summary, whatever it held before: counts and sizes add up, the
 * newest message gives last_message_id and preview, participants merge (deduplicated, 50 at most), labels unite,
 * and visible_at moves only for a visible message. Every expression reads the row as it was.
 */
export const addToThread = statement<{ id: string }, AddToThreadParams>(`
  update mail_threads set
    message_count = message_count + 1,
    last_message_at = greatest(last_message_at, $3::timestamptz),
    last_message_id = case when $3::timestamptz >= last_message_at then $4 else last_message_id end,
    preview = case when $3::timestamptz >= last_message_at then $5 else preview end,
    senders = ${mergeCapped("senders", "$6")},
    recipients = ${mergeCapped("recipients", "$7")},
    last_received_at = case when $8::boolean then greatest(last_received_at, $3::timestamptz) else last_received_at end,
    last_sent_at = case when $8::boolean then last_sent_at else greatest(last_sent_at, $3::timestamptz) end,
    size_bytes = size_bytes + $9::int,
    attachment_count = attachment_count + $10::int,
    labels = (select coalesce(jsonb_agg(distinct v), '[]'::jsonb) from jsonb_array_elements_text(labels || $11::jsonb) as l(v)),
    visible_at = case when $12::boolean then greatest(visible_at, $3::timestamptz) else visible_at end,
    updated_at = now()
  where project_id = $1 and id = $2
  returning id`);

/** The mailbox's newest activity (the Mailboxes screen), moved forward only. */
export const touchMailbox = statement<never, [projectId: string, mailboxId: string, at: string]>(`
  update mailboxes set last_activity_at = $3::timestamptz
  where project_id = $1 and id = $2 and (last_activity_at is null or last_activity_at < $3::timestamptz)`);
