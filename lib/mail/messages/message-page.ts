import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { keysetOrder } from "@/lib/db/keyset";
import { mailMessages } from "@/lib/db/schema/mail";
import { columnList, query } from "@/lib/db/statement";
import { attachmentsJson } from "@/lib/mail/messages/attachments-of";
import { messageBodyColumns, messageItemColumns } from "@/lib/mail/messages/message-columns";
import type { AttachmentView, MessageItemRow, MessageRow } from "@/lib/mail/messages/message-view";

const m = mailMessages;
const ITEM = sql.raw(columnList(messageItemColumns));
const BODIES = sql.raw(columnList(messageBodyColumns));
const { headers, ...contentColumns } = messageBodyColumns;
const HEADERS = sql.raw(columnList({ headers }));
const CONTENT = Object.values(contentColumns).map((col) => ({ column: sql.raw(`"mail_messages"."${col.name}"`), name: col.name }));

/**
 * The content fields cut to `prefix` characters, each with its full size in bytes (`text_bytes`, …), for reads over
 * MCP that the result budget shortens anyway (ContentRead in lib/tools/result-budget.ts). `left` decompresses only
 * the prefix of a compressed value and `octet_length` reads the size from its header, where `length` would
 * decompress all of it: for 50 messages of 20 KB, about 0.7 ms of Postgres instead of 15.
 */
const contentPrefix = (prefix: number) =>
  sql.join(
    CONTENT.map((c) => sql`left(${c.column}, ${prefix}) as ${sql.raw(`"${c.name}"`)}, octet_length(${c.column}) as ${sql.raw(`"${c.name}_bytes"`)}`),
    sql`, `,
  );
/** The full size in bytes of each content field a prefixed read returns; null where the field is null. */
export type ContentBytes = { textBytes: number | null; htmlBytes: number | null; extractedTextBytes: number | null; extractedHtmlBytes: number | null };

/** Each content field as read with its full size (sizes absent: a full read, nothing was cut). */
export const contentRead = (r: MessageRow & Partial<ContentBytes>): [string | null, number | null | undefined][] => [
  [r.text, r.textBytes],
  [r.html, r.htmlBytes],
  [r.extractedText, r.extractedTextBytes],
  [r.extractedHtml, r.extractedHtmlBytes],
];

/** Each row's attachments as a JSON column, so a page is one round trip instead of a second query for them. */
const ATTACHMENTS = sql`${attachmentsJson(sql.raw(`"mail_messages"."id"`), sql.raw(`"mail_messages"."project_id"`))} as "attachments"`;

export type PageRow<Bodies extends boolean> = (Bodies extends true ? MessageRow & Partial<ContentBytes> : MessageItemRow) & {
  pageAt: string;
  attachments: AttachmentView[];
};

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
  /** With bodies: the characters of each content field to read (their full sizes come with them); absent or null, all. */
  prefix?: number | null;
}

/** The statement itself, so the plan tests EXPLAIN exactly what runs. */
export function messagePageSql(opts: PageQuery<boolean>): SQL {
  const bodies = !opts.bodies ? sql`` : opts.prefix == null ? sql`${BODIES}, ` : sql`${HEADERS}, ${contentPrefix(opts.prefix)}, `;
  return sql`select ${ITEM}, ${bodies}${m.msgAt}::text as "page_at", ${ATTACHMENTS}
    from ${m} where ${opts.where ?? sql`true`} order by ${sql.join(keysetOrder(m.msgAt, m.id, opts.ascending), sql`, `)} limit ${opts.limit}`;
}
