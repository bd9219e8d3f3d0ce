import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { queryRows } from "@/lib/db/rows";

/** Seqs per statement; two statements run at once, so both cores (and two Postgres backends) work. */
const SLICE = 100_000;
const PARALLEL = 2;

/** JSON text of a value exactly as JSON.stringify writes it (to_json escapes strings the same way), null as `null`. */
const j = (column: string) => `coalesce(to_json(${column})::text, 'null')`;

/**
 * The canonical bytes of lib/ledger/canonical.ts built by Postgres: a JSON array without spaces, the timestamp in
 * toISOString() form. Kept beside entryHash on purpose — when they ever disagree, verifyLedger's JS pass (which
 * re-checks from the first entry this scan suspects) has the last word, so a drift costs speed, never a false alarm.
 */
const CANONICAL = sql.raw(
  `'["brynth-ledger-v1",' || ${[
    j("project_id"),
    "seq::text",
    j(`to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`),
    j("op"),
    j("actor_type"),
    j("actor_id"),
    j("key_id"),
    j("agent"),
    j("platform"),
    j("via"),
    j("subject"),
    j("input_digest"),
    j("output_digest"),
    j("prev_hash"),
  ].join(` || ',' || `)} || ']'`,
);

/**
 * The first seq in [from, to] that may be wrong — a hash that does not match its content, a broken link to the
 * previous hash, or a missing seq — or null when the whole range is sound. Hashing happens inside Postgres
 * (sha256 is built in, PGlite included), slices in parallel: a million entries in about a second or two instead
 * of shipping every row to Node.
 */
export async function findFirstSuspect(
  db: Executor,
  projectId: string,
  from: number,
  to: number,
  anchorHash: string,
  opts: { onProgress?: (seq: number) => void; slice?: number } = {},
): Promise<number | null> {
  const size = opts.slice ?? SLICE;
  const slices: [number, number][] = [];
  for (let start = from; start <= to; start += size) slices.push([start, Math.min(to, start + size - 1)]);
  let stopped = false;
  const gate = limiter(PARALLEL);
  const scans = slices.map(([start, end]) =>
    gate(async () => (stopped ? null : scanSlice(db, projectId, start, end, start === from ? anchorHash : null))),
  );
  scans.forEach((p) => p.catch(() => {})); // awaited in order below; an early return leaves the rest unawaited
  for (let i = 0; i < slices.length; i++) {
    const suspect = await scans[i];
    if (suspect !== null) {
      stopped = true;
      return suspect;
    }
    opts.onProgress?.(slices[i][1]);
  }
  return null;
}

/** Runs at most `n` of the given tasks at a time, in the order they were handed in. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/**
 * One slice, read from the entry before it so the first link is checked too (or against `anchor` at the start of
 * the range). A seq after a gap, a hash mismatch or a broken link marks a suspect; so does a short slice.
 */
async function scanSlice(db: Executor, projectId: string, start: number, end: number, anchor: string | null): Promise<number | null> {
  const [row] = await queryRows<{ first_bad: string | null; rows: string; max_seq: string | null }>(
    db,
    sql`select min(case
                 when seq <> coalesce(prev_seq + 1, ${start}::bigint) then coalesce(prev_seq + 1, ${start}::bigint)
                 when prev_hash is distinct from coalesce(prev, ${anchor}::text) then seq
                 when encode(sha256(convert_to(${CANONICAL}, 'UTF8')), 'hex') is distinct from hash then seq
               end) as first_bad,
               count(*) as rows, max(seq) as max_seq
        from (
          select *, lag(seq) over w as prev_seq, lag(hash) over w as prev
          from ledger_entries
          where project_id = ${projectId} and seq >= ${start - 1} and seq <= ${end}
          window w as (order by seq)
        ) s
        where seq >= ${start}`,
  );
  if (row.first_bad !== null) return Number(row.first_bad);
  if (Number(row.rows) === end - start + 1) return null;
  return row.max_seq === null ? start : Number(row.max_seq) + 1;
}
