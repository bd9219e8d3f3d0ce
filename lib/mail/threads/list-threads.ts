import { and, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { readInScope } from "@/lib/mail/messages/mail-scope";
import {
  arrayContainsAll,
  type MailScope,
  scopeCondition,
  columnContainsAll,
  hasAllLabels,
  type IncludeFlags,
  includesHidden,
  shownMessage,
} from "@/lib/mail/messages/match-filters";
import { threadView } from "@/lib/mail/threads/thread-view";

export interface ThreadFilter extends IncludeFlags {
  inboxId?: string;
  before?: Date;
  after?: Date;
  labels?: string[];
  senders?: string[];
  recipients?: string[];
  subject?: string[];
}

/**
 * Threads of a mailbox (or of the key's scope), latest activity first unless `ascending`.
 *
 * The default list (no include flag) sorts by visible_at, the newest message that is not spam, blocked,
 * unauthenticated or trash, which the store keeps on the thread; null hides the thread, and the partial
 * (mailbox_id | project_id, visible_at, id) indexes hold exactly the visible threads, so a page is an index range.
 * With an include flag a thread shows when one of its messages is shown under the flags (an EXISTS on its
 * messages), sorted by last_message_at on the (mailbox_id, last_message_at, id) index.
 */
export async function listThreads(db: Executor, opts: { actor: Actor; filter: ThreadFilter; limit: number; ascending: boolean; page: PageKey | null }) {
  const rows = await readInScope(db, opts.actor, opts.filter.inboxId, (scope) => threadListQuery(db, { ...opts, scope }));
  return rows.map((r) => ({ pageAt: r.pageAt, id: r.id, view: threadView(r) }));
}

/** The statement of one page, unawaited, so the plan test can EXPLAIN exactly what runs. */
export function threadListQuery(db: Executor, opts: { scope: MailScope; filter: ThreadFilter; limit: number; ascending: boolean; page: PageKey | null }) {
  const f = opts.filter;
  const t = mailThreads;
  const hidden = includesHidden(f);
  const at = hidden ? t.lastMessageAt : t.visibleAt;
  const where: (SQL | undefined)[] = [
    scopeCondition(t, opts.scope),
    hidden
      ? sql`exists (select 1 from ${mailMessages} m where m.thread_id = ${t.id} and ${shownMessage(f, { category: sql`m.category`, labels: sql`m.labels` })})`
      : sql`${t.visibleAt} is not null`,
    f.before ? sql`${at} < ${f.before.toISOString()}::timestamptz` : undefined,
    f.after ? sql`${at} > ${f.after.toISOString()}::timestamptz` : undefined,
    hasAllLabels(t.labels, f.labels),
    ...arrayContainsAll(t.senders, f.senders),
    ...arrayContainsAll(t.recipients, f.recipients),
    ...columnContainsAll(t.subject, f.subject),
    opts.page ? keysetAfter(at, t.id, opts.page, opts.ascending) : undefined,
  ];
  return db
    .select({ ...getTableColumns(t), pageAt: keysetAt(at) })
    .from(t)
    .where(and(...where))
    .orderBy(...keysetOrder(at, t.id, opts.ascending))
    .limit(opts.limit);
}
