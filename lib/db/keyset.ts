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

/**
 * Whether text is a timestamptz as PostgreSQL prints it (`2026-12-03 08:03:42.492+00`) with every field in range, the
 * offset's too: a cursor that carries one is read back with `::timestamptz`, and a hand-made `2026-99-99`, `25:61` or
 * `+99` failed the page's query (a 500) instead of starting it over.
 */
export function isTimestampText(at: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d{1,6})?(?:([+-])(\d\d)(?::?(\d\d))?|Z)$/.exec(at);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number);
  const [offH, offM] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  const day = new Date(Date.UTC(y, mo - 1, d));
  const inDay = y >= 1 && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && sec < 60;
  // PostgreSQL takes offsets up to 15:59.
  return inDay && offH <= 15 && offM < 60;
}
