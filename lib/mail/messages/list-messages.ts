import { and, or, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, type PageKey } from "@/lib/db/keyset";
import { query } from "@/lib/db/statement";
import { mailMessages } from "@/lib/db/schema/mail";
import { readInScope } from "@/lib/mail/messages/mail-scope";
import { messagePageSql, type PageRow } from "@/lib/mail/messages/message-page";
import {
  arrayContainsAll,
  type MailScope,
  scopeCondition,
  columnContainsAll,
  textContains,
  hasAllLabels,
  type IncludeFlags,
  shownMessage,
} from "@/lib/mail/messages/match-filters";
import { messageItemView } from "@/lib/mail/messages/message-view";

export interface MessageFilter extends IncludeFlags {
  inboxId?: string;
  before?: Date;
  after?: Date;
  labels?: string[];
  from?: string[];
  to?: string[];
  subject?: string[];
}

/**
 * Messages of a mailbox (or of the key's scope), newest first unless `ascending`, by (msg_at, id): the keyset the
 * (mailbox_id, msg_at, id) and (project_id, msg_at, id) indexes serve. Spam, blocked, unauthenticated and trashed
 * messages only when asked for. `limit` rows after `after` with their attachment metadata, no bodies.
 */
export async function listMessages(db: Executor, opts: { actor: Actor; filter: MessageFilter; limit: number; ascending: boolean; page: PageKey | null }) {
  const rows = await readInScope(db, opts.actor, opts.filter.inboxId, (scope) => query<PageRow<false>>(db, messageListQuery({ ...opts, scope })));
  return rows.map((r) => ({ pageAt: r.pageAt, id: r.id, view: messageItemView(r, r.attachments) }));
}

/** The statement of one page, so the plan test can EXPLAIN exactly what runs. */
export function messageListQuery(opts: { scope: MailScope; filter: MessageFilter; limit: number; ascending: boolean; page: PageKey | null }): SQL {
  const f = opts.filter;
  const m = mailMessages;
  const where: (SQL | undefined)[] = [
    scopeCondition(m, opts.scope),
    shownMessage(f),
    f.before ? sql`${m.msgAt} < ${f.before.toISOString()}::timestamptz` : undefined,
    f.after ? sql`${m.msgAt} > ${f.after.toISOString()}::timestamptz` : undefined,
    hasAllLabels(m.labels, f.labels),
    // `from` matches the address or the display name.
    ...(f.from ?? []).map((v) => or(textContains(m.fromAddress, v), textContains(m.fromName, v))),
    ...arrayContainsAll(m.to, f.to),
    ...columnContainsAll(m.subject, f.subject),
    opts.page ? keysetAfter(m.msgAt, m.id, opts.page, opts.ascending) : undefined,
  ];
  return messagePageSql({ where: and(...where), ascending: opts.ascending, limit: opts.limit, bodies: false });
}
