import { isNull } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { runLater } from "@/lib/db/background";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { anyUnsealed, chainEntries, unsealedRows } from "@/lib/ledger/statements";
import { extendChain, lockHead, moveHead } from "@/lib/ledger/chain-head";

const BATCH = 2000;
/**
 * Appends within this window are chained in one transaction (seven statements, however many entries). Readers seal
 * synchronously, so nobody waits on it; a longer window only means fewer, larger sealing transactions.
 */
const SEAL_DELAY_MS = 200;

/**
 * Chains a project's committed, unsealed entries: locks the head row (so sealers on every instance take turns),
 * gives each entry the next seq and the hash over the previous one, and moves the head. Returns how many it sealed.
 */
export async function sealProject(db: Db, projectId: string): Promise<number> {
  // Readers call this before every read: one index probe instead of a locking transaction when all is sealed.
  if ((await anyUnsealed(db, projectId)).length === 0) return 0;
  let total = 0;
  for (;;) {
    const sealed = await db.transaction(async (tx) => {
      const start = await lockHead(tx, projectId);
      const rows = await unsealedRows(tx, projectId, BATCH);
      if (rows.length === 0) return 0;
      const { links, head } = extendChain(projectId, start, rows);
      await chainEntries(tx, projectId, JSON.stringify(links.map((l, i) => [String(rows[i].id), l.seq, l.prevHash, l.hash])));
      await moveHead(tx, projectId, head);
      return rows.length;
    });
    total += sealed;
    if (sealed < BATCH) return total;
  }
}

const g = globalThis as { __brynthSealing?: Map<string, { running: boolean; again: boolean }> };

/**
 * Seals a project shortly after an append (append-entry.ts and append-batcher.ts ask; nothing outside lib/ledger
 * does), coalescing bursts: one sealer per project per process, re-run while
 * new entries arrived meanwhile. A periodic sweep (sealAllPending) catches entries of crashed processes.
 */
export function sealSoon(projectId: string): void {
  const state = (g.__brynthSealing ??= new Map());
  const s = state.get(projectId);
  if (s?.running) {
    s.again = true;
    return;
  }
  const entry = { running: true, again: false };
  state.set(projectId, entry);
  runLater(SEAL_DELAY_MS, async function run() {
    entry.again = false;
    try {
      await sealProject(await getDb(), projectId);
    } catch (err) {
      console.error("[brynth] ledger sealing failed; the sweep will retry", err);
    }
    if (entry.again) return runLater(SEAL_DELAY_MS, run);
    state.delete(projectId);
  });
}

/** Seals every project that has unsealed entries (start-up and periodic sweep). */
export async function sealAllPending(db: Db): Promise<number> {
  const projects = await db.selectDistinct({ projectId: ledgerEntries.projectId }).from(ledgerEntries).where(isNull(ledgerEntries.seq));
  let n = 0;
  for (const p of projects) n += await sealProject(db, p.projectId);
  return n;
}
