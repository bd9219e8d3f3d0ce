import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { keysetOrder } from "@/lib/db/keyset";
import { mailMessages } from "@/lib/db/schema/mail";
import { columnList, query } from "@/lib/db/statement";
import { messageBodyColumns, messageItemColumns } from "@/lib/mail/messages/message-columns";
import type { AttachmentView } from "@/lib/mail/messages/message-view";
import type { MessageItemRow, MessageRow } from "@/lib/mail/messages/message-view";

const m = mailMessages;
const ITEM = sql.raw(columnList(messageItemColumns));
const BODIES = sql.raw(columnList(messageBodyColumns));

/**
 * Each message's attachment metadata as a JSON array in its own row (the shape of `attachmentView`), so a page is
 * one round trip instead of a second query for its attachments.
 */
const ATTACHMENTS = sql.raw(
  `coalesce((select json_agg(json_build_object('attachmentId', a.id, 'filename', a.name, 'contentType', a.content_type, 'size', a.size_bytes, 'inline', a.inline) order by a.created_at, a.id)
    from mail_attachments a where a.message_id = "mail_messages"."id" and a.project_id = "mail_messages"."project_id"), '[]'::json) as "attachments"`,
);

export type PageRow<Bodies extends boolean> = (Bodies extends true ? MessageRow : MessageItemRow) & { pageAt: string; attachments: AttachmentView[] };

/**
 * One page of messages in keyset order (msg_at, id) with their attachments, in one statement written once: the
 * shared read of list_messages, search_messages and get_thread. `where` holds the caller's conditions, keyset
 * included; `bodies` adds text, html, the extracted reply and the headers.
 */
export function messagePage<Bodies extends boolean>(db: Executor, opts: PageQuery<Bodies>): Promise<PageRow<Bodies>[]> {
  return query<PageRow<Bodies>>(db, messagePageSql(opts));
}

interface PageQuery<Bodies extends boolean> {
  where: SQL | undefined;
  ascending: boolean;
  limit: number;
  bodies: Bodies;
}

/** The statement itself, so the plan tests EXPLAIN exactly what runs. */
export function messagePageSql(opts: PageQuery<boolean>): SQL {
  return sql`select ${ITEM}, ${opts.bodies ? sql`${BODIES}, ` : sql``}${m.msgAt}::text as "page_at", ${ATTACHMENTS}
    from ${m} where ${opts.where ?? sql`true`} order by ${sql.join(keysetOrder(m.msgAt, m.id, opts.ascending), sql`, `)} limit ${opts.limit}`;
}
