import type { Executor } from "@/lib/db/client";
import { lockHeadRow, moveHeadRow } from "@/lib/ledger/statements";
import { GENESIS_HASH, rowHash, type EntryColumns } from "@/lib/ledger/canonical";

/** Where a project's chain ends: the last seq given and its hash. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** The head, locked: whoever holds it is the only one extending the chain until its transaction ends. */
export async function lockHead(tx: Executor, projectId: string): Promise<ChainHead> {
  const [row] = await lockHeadRow(tx, projectId, GENESIS_HASH);
  const head = { seq: row.seq, hash: row.hash };
  knownHeads().set(projectId, head);
  return head;
}

export async function moveHead(tx: Executor, projectId: string, head: ChainHead): Promise<void> {
  await moveHeadRow(tx, projectId, head.seq, head.hash);
  knownHeads().set(projectId, head);
}

const g = globalThis as { __brynthLedgerHeads?: Map<string, ChainHead> };

/**
 * The heads this process last moved or read, per project: most often still the heads, so an appender can chain
 * from one without first locking it, moving it only if it has not moved since (append-batcher.ts). Set before the
 * move commits, which is harmless: the conditional move compares seq and hash, so a head that never committed
 * only makes it miss.
 */
export const knownHeads = () => (g.__brynthLedgerHeads ??= new Map());

/**
 * Gives `rows`, in order, the seqs after `head` and each the hash over the one before it; returns each entry's
 * link and the new head.
 */
export function extendChain(
  projectId: string,
  head: ChainHead,
  rows: EntryColumns[],
): { links: { seq: number; prevHash: string; hash: string }[]; head: ChainHead } {
  let { seq, hash } = head;
  const links = rows.map((row) => {
    const prevHash = hash;
    seq++;
    hash = rowHash(projectId, seq, row, prevHash);
    return { seq, prevHash, hash };
  });
  return { links, head: { seq, hash } };
}
