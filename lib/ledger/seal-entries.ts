import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { runLater } from "@/lib/db/background";
import { ledgerEntries, ledgerHeads } from "@/lib/db/schema/ledger";
import { entryHash, GENESIS_HASH } from "@/lib/ledger/canonical";

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
  const [unsealed] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, projectId), isNull(ledgerEntries.seq)))
    .limit(1);
  if (!unsealed) return 0;
  let total = 0;
  for (;;) {
    const sealed = await db.transaction(async (tx) => {
      await tx.insert(ledgerHeads).values({ projectId, seq: 0, hash: GENESIS_HASH }).onConflictDoNothing();
      const [head] = await tx.select().from(ledgerHeads).where(eq(ledgerHeads.projectId, projectId)).for("update");
      const rows = await tx
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.projectId, projectId), isNull(ledgerEntries.seq)))
        .orderBy(asc(ledgerEntries.id))
        .limit(BATCH);
      if (rows.length === 0) return 0;
      let seq = Number(head.seq);
      let prevHash = head.hash;
      const chained = rows.map((row) => {
        seq++;
        const hash = entryHash({ ...row, seq, prevHash });
        const link = [row.id, seq, prevHash, hash];
        prevHash = hash;
        return link;
      });
      // One JSON parameter: the same statement text for any batch size, prepared once per connection.
      await tx.execute(sql`
        update ledger_entries e set seq = (v->>1)::bigint, prev_hash = v->>2, hash = v->>3
        from json_array_elements(${JSON.stringify(chained)}::json) as v
        where e.id = (v->>0)::bigint`);
      await tx.update(ledgerHeads).set({ seq, hash: prevHash }).where(eq(ledgerHeads.projectId, projectId));
      return rows.length;
    });
    total += sealed;
    if (sealed < BATCH) return total;
  }
}

const g = globalThis as { __brynthSealing?: Map<string, { running: boolean; again: boolean }> };

/**
 * Seals a project shortly after an append, coalescing bursts: one sealer per project per process, re-run while
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
