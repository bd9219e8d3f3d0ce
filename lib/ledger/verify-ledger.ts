import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { ledgerEntries, ledgerHeads } from "@/lib/db/schema/ledger";
import { entryHash, GENESIS_HASH } from "@/lib/ledger/canonical";
import { AppError } from "@/lib/errors";

export interface VerifyResult {
  ok: boolean;
  from_seq: number;
  to_seq: number;
  checked: number;
  first_inconsistent_seq: number | null;
  reason: string | null;
}

const BATCH = 10_000;

/**
 * Recomputes the chain over [from, to]: each entry's hash, its link to the previous hash, and contiguous seqs.
 * Checking up to the head also compares the head row, which catches entries deleted from the end.
 */
export async function verifyLedger(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId">; fromSeq?: number; toSeq?: number; onProgress?: (seq: number) => void },
): Promise<VerifyResult> {
  const projectId = opts.actor.projectId;
  const [head] = await db.select().from(ledgerHeads).where(eq(ledgerHeads.projectId, projectId));
  const latest = head ? Number(head.seq) : 0;
  const from = opts.fromSeq ?? 1;
  const to = opts.toSeq ?? latest;
  if (to < from && !(opts.toSeq === undefined && latest === 0)) {
    throw new AppError("validation_error", `to_seq (${to}) is before from_seq (${from}).`, {
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
  if (latest === 0 || from > latest) return result(null, null, 0);

  let prevHash = GENESIS_HASH;
  if (from > 1) {
    const [anchor] = await db
      .select({ hash: ledgerEntries.hash })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, projectId), eq(ledgerEntries.seq, from - 1)));
    if (!anchor) return result(from - 1, "entry missing", 0);
    prevHash = anchor.hash;
  }

  let expected = from;
  const last = Math.min(to, latest);
  while (expected <= last) {
    const rows = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, projectId), gte(ledgerEntries.seq, expected), lte(ledgerEntries.seq, last)))
      .orderBy(asc(ledgerEntries.seq))
      .limit(BATCH);
    if (rows.length === 0) return result(expected, "entry missing", expected - from);
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== expected) return result(expected, "entry missing", expected - from);
      if (row.prevHash !== prevHash) return result(seq, "prev_hash does not match the previous entry", seq - from);
      if (entryHash({ ...row, seq }) !== row.hash) return result(seq, "hash does not match the entry's content", seq - from);
      prevHash = row.hash;
      expected++;
    }
    opts.onProgress?.(expected - 1);
  }
  if (to >= latest && head && head.hash !== prevHash) return result(latest, "chain head does not match the last entry", last - from + 1);
  return result(null, null, last - from + 1);
}
