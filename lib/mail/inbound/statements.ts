import { getTableColumns } from "drizzle-orm";
import { mailMessages, mailThreads, type MailMessage, type MailThread } from "@/lib/db/schema/mail";
import { insertRows, statement } from "@/lib/db/statement";
import type { ListMatch } from "@/lib/mail/inbound/list-verdict";

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
 * newest visible message gives last_message_id and preview (a hidden one only while the thread has no visible
 * message: a blocked or spam reply's text must not become what the default lists show of a thread), participants
 * merge (deduplicated, 50 at most), labels unite, and visible_at moves only for a visible message. Every
 * expression reads the row as it was.
 */
/** Whether the message added is the one a thread's summary shows: the newest visible, or the newest while none is. */
const newestShown = `case when $12::boolean then visible_at is null or $3::timestamptz >= visible_at
  else visible_at is null and $3::timestamptz >= last_message_at end`;

export const addToThread = statement<{ id: string }, AddToThreadParams>(`
  update mail_threads set
    message_count = message_count + 1,
    last_message_at = greatest(last_message_at, $3::timestamptz),
    last_message_id = case when ${newestShown} then $4 else last_message_id end,
    preview = case when ${newestShown} then $5 else preview end,
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

export type InboundMessageRow = Omit<MailMessage, "search">;

/** Every column of mail_messages but the generated search vector. */
const messageKeys = Object.keys(getTableColumns(mailMessages)).filter((k) => k !== "search") as (keyof InboundMessageRow & string)[];

/** A received message, every column given (store-inbound.ts builds the whole row). */
export const insertMessage = insertRows<InboundMessageRow>(mailMessages, messageKeys);

/** The columns a new thread is written with, its summary included; created_at and updated_at take their defaults. */
export const NEW_THREAD_KEYS = [
  "id",
  "projectId",
  "mailboxId",
  "subject",
  "baseSubject",
  "messageCount",
  "lastMessageAt",
  "lastMessageId",
  "preview",
  "senders",
  "recipients",
  "lastReceivedAt",
  "lastSentAt",
  "sizeBytes",
  "attachmentCount",
  "labels",
  "visibleAt",
] as const;

export type NewThreadRow = Pick<MailThread, (typeof NEW_THREAD_KEYS)[number]>;

/** A thread that starts with a received message. */
export const insertThread = insertRows<NewThreadRow>(mailThreads, NEW_THREAD_KEYS);

export interface InboundContextRow {
  dupId: string | null;
  dupEvent: string | null;
  isReply: boolean;
  matches: ListMatch[] | null;
  ownAllow: boolean;
  projectAllow: boolean;
  sourceId: string | null;
  sourceName: string | null;
}

/**
 * inbound-context.ts in one round trip. The sender's list candidates are one array parameter, so the text is the
 * same for every message. coalesce(mailbox_id, '') is the unique index's own expression, so both scopes are index
 * lookups.
 */
export const selectInboundContext = statement<
  InboundContextRow,
  [projectId: string, mailboxId: string, isDefault: boolean, rfcMessageId: string | null, inReplyTo: string | null, candidates: string[]]
>(`
  with dup as (
    select id, event_id from mail_messages
    where $4::text is not null and project_id = $1 and rfc_message_id = $4::text
      and mailbox_id = $2 and direction = 'inbound'
    limit 1
  ), reply as (
    select exists (
      select 1 from mail_messages
      where $5::text is not null and project_id = $1 and rfc_message_id = $5::text
        and mailbox_id = $2 and direction = 'outbound'
    ) as is_reply
  ), dir as (
    select case when (select is_reply from reply) then 'reply' else 'receive' end as direction
  ), lists as (
    select coalesce(mailbox_id, '') <> '' as own, type, entry from mail_list_entries
    where project_id = $1 and coalesce(mailbox_id, '') in ('', $2)
      and direction = (select direction from dir) and entry = any($6::text[])
  ), src as (
    select id, name from sources
    where $3::boolean and project_id = $1 and type = 'email' and removed_at is null
    limit 1
  )
  select (select id from dup) as dup_id, (select event_id from dup) as dup_event,
         (select is_reply from reply) as is_reply,
         (select json_agg(json_build_object('own', own, 'type', type, 'entry', entry)) from lists) as matches,
         exists (select 1 from mail_list_entries where project_id = $1 and coalesce(mailbox_id, '') = $2
           and direction = (select direction from dir) and type = 'allow') as own_allow,
         exists (select 1 from mail_list_entries where project_id = $1 and coalesce(mailbox_id, '') = ''
           and direction = (select direction from dir) and type = 'allow') as project_allow,
         (select id from src) as source_id, (select name from src) as source_name`);

export interface RelatedRow {
  kind: "cited" | "child";
  id: string;
  rfc: string | null;
  threadId: string;
  mailboxId: string;
  direction: "inbound" | "outbound";
  replyToInbox: boolean;
  threadSubject: string | null;
  threadBase: string | null;
}

/**
 * find-related.ts in one round trip: the messages the ids name (cited), and this mailbox's stored replies whose
 * References name the new message (child, at most `limit`), found through the GIN index on `references`.
 */
export const selectRelated = statement<RelatedRow, [projectId: string, mailboxId: string, ids: string[], messageId: string | null, limit: number]>(`
  select 'cited' as kind, m.id, m.rfc_message_id as rfc, m.thread_id, m.mailbox_id, m.direction, m.reply_to_inbox,
         t.subject as thread_subject, t.base_subject as thread_base
  from mail_messages m join mail_threads t on t.id = m.thread_id
  where m.project_id = $1 and m.rfc_message_id = any($3::text[])
  union all
  (select 'child' as kind, m.id, m.rfc_message_id as rfc, m.thread_id, m.mailbox_id, m.direction, m.reply_to_inbox,
          t.subject as thread_subject, t.base_subject as thread_base
   from mail_messages m join mail_threads t on t.id = m.thread_id
   where $4::text is not null and m.project_id = $1 and m.mailbox_id = $2
     and m."references" @> jsonb_build_array($4::text)
   order by m.msg_at, m.id
   limit $5::int)`);

/** A custom domain of this instance that passed verification. */
export const verifiedDomain = statement<{ id: string }, [domain: string]>(`
  select id from mail_domains where domain = $1 and verified_at is not null`);

/**
 * Which of a message's mailboxes are still live, held FOR SHARE to the commit: the listener answers 250 before the
 * intake stores, so a delete_inbox can land in between, and its UPDATE now waits for this transaction or is seen.
 */
export const liveMailboxes = statement<{ id: string }, [projectId: string, ids: string[]]>(`
  select id from mailboxes where project_id = $1 and id = any($2::text[]) and deleted_at is null for share`);
