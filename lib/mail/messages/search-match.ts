import { sql, type SQL } from "drizzle-orm";
import { mailMessages } from "@/lib/db/schema/mail";

/**
 * The full-text match both search tools share (design §2.7, D9): the stored `search` vector (in a GIN index beside
 * mailbox_id) against `websearch_to_tsquery('simple', q)`, with `q` a bound parameter. Odd input like `&&|!(`
 * parses to an empty query, which matches nothing; but each `-` before a term is a NOT, and 33 of them in a row (a
 * pasted signature separator, spaced or not) nest past PostgreSQL's tsquery stack: an error, not an empty query. So
 * a run of dashes, spaces between them or not, counts as one. Spam and trash are left out, as the spec says;
 * results are newest first, never ranked (ts_rank on a common term costs 70–190 ms at 100k messages).
 */
export function searchMatch(q: string, range: { before?: Date; after?: Date }): SQL[] {
  const m = mailMessages;
  return [
    sql`${m.search} @@ websearch_to_tsquery('simple', ${q.replace(/-[\s-]*-/g, "-")})`,
    sql`${m.category} <> 'spam'`,
    sql`not ${m.labels} @> '["trash"]'::jsonb`,
    ...(range.before ? [sql`${m.msgAt} < ${range.before.toISOString()}::timestamptz`] : []),
    ...(range.after ? [sql`${m.msgAt} > ${range.after.toISOString()}::timestamptz`] : []),
  ];
}
