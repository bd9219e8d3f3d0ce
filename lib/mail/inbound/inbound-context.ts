import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";

export interface InboundContext {
  /** A message of this Message-ID already stored in the mailbox (a redelivery). */
  duplicate: { id: string; eventId: string | null } | null;
  /** The sender is on a receive block list (and on no allow list) of the project or mailbox. */
  blocked: boolean;
  /** The project's active email source, looked up only for the project address. */
  source: { id: string; name: string } | null;
}

/**
 * What storing one inbound message needs to know before writing, in one round trip (commit latency and round
 * trips are what bound inbound throughput): duplicate, receive lists, email source.
 */
export async function inboundContext(
  db: Executor,
  opts: { projectId: string; mailboxId: string; isDefault: boolean; rfcMessageId: string | null; from: string | null },
): Promise<InboundContext> {
  const from = opts.from?.toLowerCase() ?? null;
  const domain = from ? from.slice(from.lastIndexOf("@") + 1) : null;
  const [row] = await query<{
    dupId: string | null;
    dupEvent: string | null;
    blocks: number;
    allows: number;
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
      ), lists as (
        select type from mail_list_entries
        where ${from}::text is not null and project_id = ${opts.projectId} and direction = 'receive'
          and (mailbox_id is null or mailbox_id = ${opts.mailboxId}) and entry in (${from}, ${domain})
      ), src as (
        select id, name from sources
        where ${opts.isDefault} and project_id = ${opts.projectId} and type = 'email' and removed_at is null
        limit 1
      )
      select (select id from dup) as dup_id, (select event_id from dup) as dup_event,
             (select count(*) from lists where type = 'block')::int as blocks,
             (select count(*) from lists where type = 'allow')::int as allows,
             (select id from src) as source_id, (select name from src) as source_name`,
  );
  return {
    duplicate: row.dupId ? { id: row.dupId, eventId: row.dupEvent } : null,
    blocked: row.blocks > 0 && row.allows === 0,
    source: row.sourceId && row.sourceName ? { id: row.sourceId, name: row.sourceName } : null,
  };
}
