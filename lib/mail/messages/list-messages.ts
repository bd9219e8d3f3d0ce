import { and, or, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailScope } from "@/lib/mail/messages/mail-scope";
import { messageItemColumns } from "@/lib/mail/messages/message-columns";
import { attachmentsOf } from "@/lib/mail/messages/attachments-of";
import {
  arrayContainsAll,
  type MailScope,
  scopeCondition,
  columnContainsAll,
  containsPattern,
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
  const scope = await mailScope(db, opts.actor, opts.filter.inboxId);
  const rows = await messageListQuery(db, { ...opts, scope });
  const files = await attachmentsOf(
    db,
    opts.actor.projectId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ pageAt: r.pageAt, id: r.id, view: messageItemView(r, files.get(r.id) ?? []) }));
}

/** The statement of one page, unawaited, so the plan test can EXPLAIN exactly what runs. */
export function messageListQuery(db: Executor, opts: { scope: MailScope; filter: MessageFilter; limit: number; ascending: boolean; page: PageKey | null }) {
  const f = opts.filter;
  const m = mailMessages;
  const where: (SQL | undefined)[] = [
    scopeCondition(m, opts.scope),
    shownMessage(f),
    f.before ? sql`${m.msgAt} < ${f.before.toISOString()}::timestamptz` : undefined,
    f.after ? sql`${m.msgAt} > ${f.after.toISOString()}::timestamptz` : undefined,
    hasAllLabels(m.labels, f.labels),
    // `from` matches the address or the display name.
    ...(f.from ?? []).map((v) => or(sql`${m.fromAddress} ilike ${containsPattern(v)}`, sql`${m.fromName} ilike ${containsPattern(v)}`)),
    ...arrayContainsAll(m.to, f.to),
    ...columnContainsAll(m.subject, f.subject),
    opts.page ? keysetAfter(m.msgAt, m.id, opts.page, opts.ascending) : undefined,
  ];
  return db
    .select({ ...messageItemColumns, pageAt: keysetAt(m.msgAt) })
    .from(m)
    .where(and(...where))
    .orderBy(...keysetOrder(m.msgAt, m.id, opts.ascending))
    .limit(opts.limit);
}
