import type { Actor } from "@/lib/actor";
import { getDb, type Executor } from "@/lib/db/client";
import { settle } from "@/lib/db/transaction";
import { withoutStatementTimeout } from "@/lib/db/statement-timeout";
import { GENESIS_HASH, rowHash } from "@/lib/ledger/canonical";
import { chainEnds, chainedRange, hashAt } from "@/lib/ledger/statements";
import { sealProject } from "@/lib/ledger/seal-entries";
import { findFirstSuspect } from "@/lib/ledger/scan-chain";
import { AppError } from "@/lib/errors";

export interface VerifyResult {
  ok: boolean;
  from_seq: number;
  to_seq: number;
  checked: number;
  first_inconsistent_seq: number | null;
  reason: string | null;
}

const BATCH = 20_000;

/**
 * Recomputes the chain over [from, to]: each entry's hash, its link to the previous hash, and contiguous seqs.
 * Checking up to the head also compares the head row, which catches entries deleted from the end, and entries past it.
 */
export async function verifyLedger(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId">; fromSeq?: number; toSeq?: number; onProgress?: (seq: number) => void },
): Promise<VerifyResult> {
  const projectId = opts.actor.projectId;
  await sealProject(await getDb(), projectId);
  // The chain ends at its head row or its last entry, whichever is later: an entry forged past the head, or a head
  // row rolled back or deleted, leaves entries that ledger_query shows, and each must be checked (then the head
  // mismatch below names it), not passed over as "after the end".
  const [ends] = await chainEnds(db, projectId);
  const headSeq = Number(ends.headSeq ?? 0);
  const latest = Math.max(headSeq, Number(ends.lastSeq));
  const from = opts.fromSeq ?? 1;
  const to = opts.toSeq ?? Math.max(latest, from);
  if (to < from) {
    throw new AppError("validation_error", `to_seq: must not be before from_seq (${to} < ${from}).`, {
      fix: "Pass a to_seq greater than or equal to from_seq, or omit it to check up to the latest entry.",
    });
  }
  const result = (first: number | null, reason: string | null, checked: number): VerifyResult => ({
    ok: first === null,
    from_seq: from,
    to_seq: to,
    checked,
    first_inconsistent_seq: first,
    reason,
  });
  // The chain starts at 1: a row below it (forged at 0 or -1) was shown by ledger_query and the export, while every
  // range verified started at 1 and passed it by (found by helper-105).
  const first = ends.firstSeq === null ? null : Number(ends.firstSeq);
  if (first !== null && first < 1 && from <= 1) return result(first, "entry before the start of the chain (seq below 1)", 0);
  if (latest === 0 || from > latest) return result(null, null, 0);

  let prevHash = GENESIS_HASH;
  if (from > 1) {
    const [anchor] = await hashAt(db, projectId, from - 1);
    if (!anchor) return result(from - 1, "entry missing", 0);
    prevHash = anchor.hash;
  }

  const last = Math.min(to, latest);
  // Postgres hashes the range first; Node re-checks from the first entry it suspects and names the reason.
  const suspect = await findFirstSuspect(db, projectId, from, last, prevHash, { onProgress: opts.onProgress });
  if (suspect !== null && suspect > from) {
    const [anchor] = await hashAt(db, projectId, suspect - 1);
    prevHash = anchor.hash;
  }
  const checked = suspect === null ? await lastHash(db, projectId, last) : await checkInNode(db, projectId, suspect, last, prevHash);
  if ("first" in checked) return result(checked.first, checked.reason, checked.first - from);
  if (to >= latest && (headSeq !== latest || ends.headHash !== checked.hash)) {
    return result(latest, "chain head does not match the last entry", last - from + 1);
  }
  return result(null, null, last - from + 1);
}

async function lastHash(db: Executor, projectId: string, seq: number): Promise<{ hash: string }> {
  const [row] = await hashAt(db, projectId, seq);
  return row;
}

/**
 * Entry by entry in Node, with entryHash itself, from `start` to `last`: the first inconsistent seq and why, or the
 * hash of the last entry. One batch is always in flight while the previous one is hashed.
 */
async function checkInNode(
  db: Executor,
  projectId: string,
  start: number,
  last: number,
  anchorHash: string,
): Promise<{ first: number; reason: string } | { hash: string }> {
  let prevHash = anchorHash;
  // Settled at once: an early return may leave the batch in flight unread, never an unhandled rejection. 20,000
  // entries are a long read by nature, so without the statement timeout (as the scan's slices).
  const fetchBatch = (from: number) => settle(withoutStatementTimeout(db, (tx) => chainedRange(tx, projectId, from, Math.min(last, from + BATCH - 1))));
  const missing = (seq: number) => ({ first: seq, reason: "entry missing" });
  let expected = start;
  let pending = fetchBatch(start);
  while (expected <= last) {
    const fetched = await pending;
    if (!fetched.ok) throw fetched.error;
    const rows = fetched.value as Awaited<ReturnType<typeof chainedRange>>;
    const nextStart = expected + BATCH;
    if (nextStart <= last) pending = fetchBatch(nextStart);
    if (rows.length === 0) return missing(expected);
    for (const r of rows) {
      const seq = r.seq;
      if (seq !== expected) return missing(expected);
      if (r.prevHash !== prevHash) return { first: seq, reason: "prev_hash does not match the previous entry" };
      if (rowHash(projectId, seq, r, r.prevHash) !== r.hash) return { first: seq, reason: "hash does not match the entry's content" };
      prevHash = r.hash;
      expected++;
    }
    // A batch shorter than its range means seqs are missing inside it.
    if (expected <= Math.min(last, nextStart - 1)) return missing(expected);
  }
  return { hash: prevHash };
}
