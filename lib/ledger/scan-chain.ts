import type { Executor } from "@/lib/db/client";
import { scanSlice as scanSliceRow } from "@/lib/ledger/statements";
import { settle } from "@/lib/db/transaction";
import { withoutStatementTimeout } from "@/lib/db/statement-timeout";

/**
 * Seqs per statement; two statements run at once, so both cores (and two Postgres backends) work. Two in the whole
 * process, not two per verify: each verify of a million entries kept both cores hashing for a second or two, and
 * verifies called at once (one key's several calls, or several projects') each took two more connections.
 */
const SLICE = 100_000;
const PARALLEL = 2;
const g = globalThis as { __brynthLedgerScans?: ReturnType<typeof limiter> };

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
  const count = Math.ceil((to - from + 1) / size);
  let stopped = false;
  const gate = (g.__brynthLedgerScans ??= limiter(PARALLEL));
  const sliceAt = (i: number): [number, number] => [from + i * size, Math.min(to, from + i * size + size - 1)];
  // Settled at once, read in order below: an early return leaves the rest unread, never an unhandled rejection.
  const launch = (i: number) => {
    const [start, end] = sliceAt(i);
    return settle(gate(async () => (stopped ? null : scanSlice(db, projectId, start, end, start === from ? anchorHash : null))));
  };
  // PARALLEL slices ahead of the one read, queued as earlier ones are read: all at once, a forged seq near 2^53
  // asked for 90 million promises up front and the process ran out of memory (found by helper-105).
  const ahead = Array.from({ length: Math.min(PARALLEL, count) }, (_, i) => launch(i));
  for (let i = 0; i < count; i++) {
    const scanned = await (ahead.shift() as ReturnType<typeof launch>);
    if (i + PARALLEL < count) ahead.push(launch(i + PARALLEL));
    if (!scanned.ok) throw scanned.error;
    const suspect = scanned.value as number | null;
    if (suspect !== null) {
      stopped = true;
      return suspect;
    }
    opts.onProgress?.(sliceAt(i)[1]);
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
 * One slice (statements.ts `scanSlice`); a short slice marks a suspect too. Hashing 100,000 entries is long work by
 * nature, so it runs without the pool's statement timeout; the slice size bounds it.
 */
async function scanSlice(db: Executor, projectId: string, start: number, end: number, anchor: string | null): Promise<number | null> {
  const [row] = await withoutStatementTimeout(db, (tx) => scanSliceRow(tx, projectId, start, end, anchor));
  if (row.firstBad !== null) return row.firstBad;
  if (row.rows === end - start + 1) return null;
  return row.maxSeq === null ? start : row.maxSeq + 1;
}
