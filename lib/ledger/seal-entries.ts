import { isNull } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { runLater } from "@/lib/db/background";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { statement } from "@/lib/db/statement";
import { ENTRY_COLUMNS, type EntryColumns } from "@/lib/ledger/canonical";
import { extendChain, lockHead, moveHead } from "@/lib/ledger/chain-head";

const BATCH = 2000;
/**
 * Appends within this window are chained in one transaction (seven statements, however many entries). Readers seal
 * synchronously, so nobody waits on it; a longer window only means fewer, larger sealing transactions.
 */
const SEAL_DELAY_MS = 200;


// Every tool call's entry passes through these, so they are prepared texts rather than builder queries.
const anyUnsealed = statement<{ id: unknown }, [projectId: string]>(
  `select id from ledger_entries where project_id = $1 and seq is null limit 1`,
);
const unsealedRows = statement<EntryColumns & { id: number | string }, [projectId: string, limit: number]>(`
  select id, ${ENTRY_COLUMNS}
  from ledger_entries where project_id = $1 and seq is null order by id limit $2`);
// One JSON parameter: the same statement text for any batch size, prepared once per connection; jsonb, parsed
// once, where json's `->>` re-parses each element per column (~35 against ~55 µs of Postgres CPU per entry).
const chain = statement<never, [links: string]>(`
  update ledger_entries e set seq = (v->>1)::bigint, prev_hash = v->>2, hash = v->>3
  from jsonb_array_elements($1::jsonb) as v
  where e.id = (v->>0)::bigint`);

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
      await chain(tx, JSON.stringify(links.map((l, i) => [String(rows[i].id), l.seq, l.prevHash, l.hash])));
      await moveHead(tx, projectId, head);
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
