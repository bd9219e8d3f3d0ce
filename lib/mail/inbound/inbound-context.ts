import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { listCandidates, type ListMatch, listVerdict } from "@/lib/mail/inbound/list-verdict";

export interface InboundContext {
  /** A message of this Message-ID already stored in the mailbox (a redelivery). */
  duplicate: { id: string; eventId: string | null } | null;
  /** The mail continues a thread this mailbox replied to: In-Reply-To names one of its outbound messages. */
  isReply: boolean;
  /** The sender is refused by the lists that apply (`reply` lists for a reply, `receive` lists otherwise; L1). */
  blocked: boolean;
  /** The project's active email source, looked up only for the project address. */
  source: { id: string; name: string } | null;
}

/**
 * What storing one inbound message needs to know before writing, in one round trip (commit latency and round
 * trips are what bound inbound throughput): duplicate, whether it is a reply to this mailbox, the list entries that
 * match the sender in the direction that applies plus whether each scope has an allow list, and the email source.
 * The list decision itself is listVerdict's.
 */
export async function inboundContext(
  db: Executor,
  opts: { projectId: string; mailboxId: string; isDefault: boolean; rfcMessageId: string | null; inReplyTo: string | null; from: string | null },
): Promise<InboundContext> {
  const candidates = listCandidates(opts.from);
  const matching =
    candidates.length > 0
      ? sql`entry in (${sql.join(
          candidates.map((c) => sql`${c}`),
          sql`, `,
        )})`
      : sql`false`;
  // coalesce(mailbox_id, '') is the unique index's own expression, so both scopes are index lookups.
  const [row] = await query<{
    dupId: string | null;
    dupEvent: string | null;
    isReply: boolean;
    matches: ListMatch[] | null;
    ownAllow: boolean;
    projectAllow: boolean;
    sourceId: string | null;
    sourceName: string | null;
  }>(
    db,
    sql`
      with dup as (
        select id, event_id from mail_messages
        where ${opts.rfcMessageId}::text is not null and project_id = ${opts.projectId} and rfc_message_id = ${opts.rfcMessageId}
          and mailbox_id = ${opts.mailboxId} and direction = 'inbound'
        limit 1
      ), reply as (
        select exists (
          select 1 from mail_messages
          where ${opts.inReplyTo}::text is not null and project_id = ${opts.projectId} and rfc_message_id = ${opts.inReplyTo}
            and mailbox_id = ${opts.mailboxId} and direction = 'outbound'
        ) as is_reply
      ), dir as (
        select case when (select is_reply from reply) then 'reply' else 'receive' end as direction
      ), lists as (
        select coalesce(mailbox_id, '') <> '' as own, type, entry from mail_list_entries
        where project_id = ${opts.projectId} and coalesce(mailbox_id, '') in ('', ${opts.mailboxId})
          and direction = (select direction from dir) and ${matching}
      ), src as (
        select id, name from sources
        where ${opts.isDefault} and project_id = ${opts.projectId} and type = 'email' and removed_at is null
        limit 1
      )
      select (select id from dup) as dup_id, (select event_id from dup) as dup_event,
             (select is_reply from reply) as is_reply,
             (select json_agg(json_build_object('own', own, 'type', type, 'entry', entry)) from lists) as matches,
             exists (select 1 from mail_list_entries where project_id = ${opts.projectId} and coalesce(mailbox_id, '') = ${opts.mailboxId}
               and direction = (select direction from dir) and type = 'allow') as own_allow,
             exists (select 1 from mail_list_entries where project_id = ${opts.projectId} and coalesce(mailbox_id, '') = ''
               and direction = (select direction from dir) and type = 'allow') as project_allow,
             (select id from src) as source_id, (select name from src) as source_name`,
  );
  return {
    duplicate: row.dupId ? { id: row.dupId, eventId: row.dupEvent } : null,
    isReply: row.isReply,
    blocked: listVerdict(row.matches ?? [], { own: row.ownAllow, project: row.projectAllow }),
    source: row.sourceId && row.sourceName ? { id: row.sourceId, name: row.sourceName } : null,
  };
}
