import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";

/**
 * The conditions the thread and message lists and searches share: scope, hidden kinds and the filters of design
 * §1.4. Substring filters are case-insensitive and every given value must match; `_`, `%` and `\` are the
 * caller's characters, never LIKE wildcards.
 */

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `value` is a substring of `text`, ignoring case. Both sides in NFC: mail written on macOS often comes decomposed
 * (`e` and a combining accent), and a filter typed composed missed it (found by helper-119).
 */
export const textContains = (text: AnyColumn | SQL, value: string): SQL => sql`normalize(${text}, NFC) ilike ${`%${likeEscape(value.normalize("NFC"))}%`}`;

/** Every value is a substring of the text column. */
export const columnContainsAll = (column: AnyColumn, values: readonly string[] | undefined): SQL[] => (values ?? []).map((v) => textContains(column, v));

/** Every value is a substring of some element of a jsonb array of strings (senders, to, …). */
export const arrayContainsAll = (column: AnyColumn, values: readonly string[] | undefined): SQL[] =>
  (values ?? []).map((v) => sql`exists (select 1 from jsonb_array_elements_text(${column}) as e(v) where ${textContains(sql`e.v`, v)})`);

/** Labels are stored lower case: `labels` means all the given ones (jsonb containment, served by the GIN index). */
export const hasAllLabels = (column: AnyColumn, labels: readonly string[] | undefined): SQL | undefined =>
  labels?.length ? sql`${column} @> ${JSON.stringify(labels.map((l) => l.trim().toLowerCase()))}::jsonb` : undefined;

/** Which kinds of hidden mail a list call asks to see (all false: the default lists). */
export interface IncludeFlags {
  includeSpam?: boolean;
  includeBlocked?: boolean;
  includeUnauthenticated?: boolean;
  includeTrash?: boolean;
}

export const includesHidden = (f: IncludeFlags) => !!(f.includeSpam || f.includeBlocked || f.includeUnauthenticated || f.includeTrash);

/**
 * A message shown under these flags: its category is normal or asked for, and it is not in the trash unless that
 * is asked for. The same rule as the store's `isVisible` when every flag is false.
 */
export function shownMessage(f: IncludeFlags, m: { category: AnyColumn | SQL; labels: AnyColumn | SQL } = mailMessages): SQL {
  const categories = [
    "normal",
    ...(f.includeSpam ? ["spam"] : []),
    ...(f.includeBlocked ? ["blocked"] : []),
    ...(f.includeUnauthenticated ? ["unauthenticated"] : []),
  ];
  const category = sql`${m.category} in (${sql.join(
    categories.map((c) => sql`${c}`),
    sql`, `,
  )})`;
  return f.includeTrash ? category : sql`(${category} and not ${m.labels} @> '["trash"]'::jsonb)`;
}

/** Where a list or search looks: one mailbox, or the project without its deleted mailboxes. */
export interface MailScope {
  projectId: string;
  mailboxId: string | null;
  /** Project-wide only: mailboxes deleted (soft) whose mail must not show. Usually none. */
  deletedMailboxIds: string[];
}

/**
 * The scope as SQL over a table's project_id and mailbox_id columns.
 *
 * One mailbox: the (mailbox_id, …) indexes must drive the walk. The project check (and that the mailbox is not
 * deleted, which readInScope relies on) is made on the mailbox row, as a one-time filter: with `project_id = $1` offered on the table itself, the planner may walk the project's
 * (project_id, msg_at, id) index and filter by mailbox instead, which for a quiet inbox of a busy project reads the
 * whole project (read-plans.test.ts caught it).
 *
 * Project-wide: the deleted mailboxes are excluded by a list read beforehand rather than a join, so the walk stays
 * the (project_id, …) index in sort order instead of a per-mailbox scan and a sort of every thread.
 */
export function scopeCondition(cols: { projectId: AnyColumn; mailboxId: AnyColumn }, scope: MailScope): SQL {
  if (scope.mailboxId) {
    return sql`${cols.mailboxId} = ${scope.mailboxId} and exists (select 1 from ${mailboxes} where ${mailboxes.id} = ${scope.mailboxId} and ${mailboxes.projectId} = ${scope.projectId} and ${mailboxes.deletedAt} is null)`;
  }
  if (scope.deletedMailboxIds.length === 0) return sql`${cols.projectId} = ${scope.projectId}`;
  // One JSON parameter, however many: a parameter per id failed past PostgreSQL's 65,535 (found by helper-119: a
  // project that had created and deleted that many mailboxes could list no mail at all). NOT IN over a subquery is
  // a hashed subplan, one probe a row.
  return sql`${cols.projectId} = ${scope.projectId} and ${cols.mailboxId} not in (select jsonb_array_elements_text(${JSON.stringify(scope.deletedMailboxIds)}::jsonb))`;
}
