import { asc, desc, sql, type AnyColumn, type SQL } from "drizzle-orm";

/**
 * Where a page ended: the last row's sort timestamp exactly as Postgres prints it (`col::text`, with the
 * microseconds a JS Date would drop, so no row at a page boundary is skipped or repeated) and its id, the tie-breaker.
 */
export interface PageKey {
  at: string;
  id: string;
}

/** Select this beside a row's columns to build its PageKey. */
export const keysetAt = (at: AnyColumn) => sql<string>`${at}::text`;

/** The rows after `key` in the page order: `(at, id)` above it when ascending, below it when newest first. */
export const keysetAfter = (at: AnyColumn, id: AnyColumn, key: PageKey, ascending: boolean): SQL =>
  ascending ? sql`(${at}, ${id}) > (${key.at}::timestamptz, ${key.id})` : sql`(${at}, ${id}) < (${key.at}::timestamptz, ${key.id})`;

/** The page order matching keysetAfter; an index on (…, at, id) serves both directions. */
export const keysetOrder = (at: AnyColumn, id: AnyColumn, ascending: boolean): SQL[] => (ascending ? [asc(at), asc(id)] : [desc(at), desc(id)]);
