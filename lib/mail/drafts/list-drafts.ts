import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailboxes } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { draftFiles, draftView } from "@/lib/mail/drafts/draft-view";
import { hasAllLabels } from "@/lib/mail/messages/match-filters";
import { mailboxScope } from "@/lib/mail/mailboxes/mailbox-scope";
import type { DraftOutput } from "@/lib/tools/mailboxes/draft-fields";

export interface DraftFilter {
  inboxId?: string;
  before?: Date;
  after?: Date;
  labels?: string[];
}

/**
 * Drafts of a mailbox, or of every live mailbox the key may see (no inbox named), most recently changed first
 * unless `ascending`, by (updated_at, id): the keyset of the drafts' mailbox and project indexes. `labels` must all
 * be set (`scheduled` finds scheduled drafts). Rows come with their attachment metadata and bodies.
 */
export async function listDrafts(
  db: Executor,
  o: { actor: Actor; filter: DraftFilter; limit: number; ascending: boolean; page: PageKey | null },
): Promise<Array<{ pageAt: string; id: string; view: DraftOutput }>> {
  const d = mailDrafts;
  const { mailboxId } = await mailboxScope(db, o.actor, o.filter.inboxId, { projectWide: true });
  const f = o.filter;
  const where: (SQL | undefined)[] = [
    eq(d.projectId, o.actor.projectId),
    mailboxId
      ? eq(d.mailboxId, mailboxId)
      : sql`${d.mailboxId} in (select ${mailboxes.id} from ${mailboxes} where ${mailboxes.projectId} = ${o.actor.projectId} and ${mailboxes.deletedAt} is null)`,
    f.before ? sql`${d.updatedAt} < ${f.before.toISOString()}::timestamptz` : undefined,
    // updated_at is the database's now(), in microseconds, and shown in milliseconds: `after` a time as shown leaves
    // that whole millisecond out (`> 10:00:00.123` matched 10:00:00.123456, the very draft it was read from). The
    // millisecond is added in SQL: after 9999-12-31T23:59:59.999Z, JavaScript's next one is year 10000, written
    // `+010000-…`, which timestamptz cannot read (a 500).
    f.after ? sql`${d.updatedAt} >= ${f.after.toISOString()}::timestamptz + interval '1 millisecond'` : undefined,
    hasAllLabels(d.labels, f.labels),
    o.page ? keysetAfter(d.updatedAt, d.id, o.page, o.ascending) : undefined,
  ];
  const rows: Array<MailDraft & { pageAt: string }> = await db
    .select({ ...getTableColumns(d), pageAt: keysetAt(d.updatedAt) })
    .from(d)
    .where(and(...where))
    .orderBy(...keysetOrder(d.updatedAt, d.id, o.ascending))
    .limit(o.limit);
  const files = await draftFiles(
    db,
    o.actor.projectId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ pageAt: r.pageAt, id: r.id, view: draftView(r, files.get(r.id) ?? []) }));
}
