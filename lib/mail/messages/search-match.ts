import { sql, type SQL } from "drizzle-orm";
import { mailMessages } from "@/lib/db/schema/mail";

/**
 * The full-text match both search tools share (design §2.7, D9): the stored `search` vector (in a GIN index beside
 * mailbox_id) against `websearch_to_tsquery('simple', q)`, with `q` a bound parameter (searchWords). Spam and trash
 * are left out, as the spec says; results are newest first, never ranked (ts_rank on a common term costs 70–190 ms
 * at 100k messages).
 */
export function searchMatch(q: string, range: { before?: Date; after?: Date }): SQL[] {
  const m = mailMessages;
  return [
    sql`${m.search} @@ websearch_to_tsquery('simple', ${searchWords(q)})`,
    sql`${m.category} <> 'spam'`,
    sql`not ${m.labels} @> '["trash"]'::jsonb`,
    ...(range.before ? [sql`${m.msgAt} < ${range.before.toISOString()}::timestamptz`] : []),
    ...(range.after ? [sql`${m.msgAt} > ${range.after.toISOString()}::timestamptz`] : []),
  ];
}

/**
 * `q` as websearch_to_tsquery should read it. It skips `! & | ( ) <` but keeps counting the dashes around them as
 * NOTs, one nested in the next, and 33 nested NOTs overflow PostgreSQL's tsquery stack: an error, not a query
 * (`-!-!-!…`, a pasted signature separator). Those characters are only separators to it, so they become spaces,
 * and a run of two or more dashes (spaced or not) becomes a separator too: `--verbose` and `release--finally` are
 * words as the mail wrote them, where reading the run as one NOT found every message but the one asked for (both
 * found by helper-119). One dash before a word is still a NOT. NFC, as the stored vector is (migration 0039).
 */
export function searchWords(q: string): string {
  return q
    .normalize("NFC")
    .replace(/[!&|()<]/g, " ")
    .replace(/-(?:\s*-)+/g, " ");
}
