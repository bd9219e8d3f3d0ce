import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";

/**
 * The filters list_threads and list_messages share (design §1.4). Substring filters are case-insensitive and every
 * given value must match; `_`, `%` and `\` are the caller's characters, never LIKE wildcards.
 */

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
export const containsPattern = (s: string) => `%${likeEscape(s)}%`;

/** Every value is a substring of the text column. */
export const columnContainsAll = (column: AnyColumn, values: readonly string[] | undefined): SQL[] =>
  (values ?? []).map((v) => sql`${column} ilike ${containsPattern(v)}`);

/** Every value is a substring of some element of a jsonb array of strings (senders, to, …). */
export const arrayContainsAll = (column: AnyColumn, values: readonly string[] | undefined): SQL[] =>
  (values ?? []).map((v) => sql`exists (select 1 from jsonb_array_elements_text(${column}) as e(v) where e.v ilike ${containsPattern(v)})`);

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

/**
 * The mailbox condition of a list or search: the one mailbox mailboxScope chose, or (project-wide) the project's
 * live mailboxes, so mail of a deleted inbox never shows in a project-wide list.
 */
export const inMailboxes = (column: AnyColumn, projectId: string, mailboxId: string | null): SQL =>
  mailboxId
    ? sql`${column} = ${mailboxId}`
    : sql`${column} in (select ${mailboxes.id} from ${mailboxes} where ${mailboxes.projectId} = ${projectId} and ${mailboxes.deletedAt} is null)`;
