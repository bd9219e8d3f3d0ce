import type { Db } from "@/lib/db/client";
import { coalesce } from "@/lib/db/coalesce";
import type { ledgerEntries } from "@/lib/db/schema/ledger";
import type { EntryColumns } from "@/lib/ledger/canonical";
import { extendChain, knownHeads, type ChainHead } from "@/lib/ledger/chain-head";
import { sealSoon } from "@/lib/ledger/seal-entries";
import { insertEntries } from "@/lib/ledger/statements";

type Row = typeof ledgerEntries.$inferInsert;

/**
 * Rows per statement (statements.ts `insertEntries`): one JSON parameter, so the only bound is the size of one
 * message. The entries go in chained from the head this process last saw when that is still the head and nobody
 * holds it; otherwise unchained, for the sealer — a call never waits for a head held through a sealing transaction.
 */
const MAX_ROWS = 2000;

const columnsOf = (r: Row): EntryColumns => ({
  ts: r.ts.toISOString(),
  op: r.op,
  actorType: r.actorType,
  actorId: r.actorId ?? null,
  keyId: r.keyId ?? null,
  agent: r.agent ?? null,
  platform: r.platform ?? null,
  via: r.via,
  subject: r.subject ?? null,
  inputDigest: r.inputDigest ?? null,
  outputDigest: r.outputDigest ?? null,
});

/** Where this process has not seen the head yet: no head has this seq, so the rows go in unchained. */
const UNKNOWN: ChainHead = { seq: -1, hash: "" };

/**
 * A project's entries, inserted chained from the head this process last saw — most often still the head, so the
 * call costs one statement and its commit, as an unchained INSERT did, where the sealer would later rewrite each
 * row: a second version of it and six more index entries, Postgres's largest cost per read call, in bursts that
 * set the read path's p99 (bench/disk.ts). When that head has moved or is held, the sealer chains them.
 */
async function appendProject(db: Db, projectId: string, rows: Row[]): Promise<void> {
  const head = knownHeads().get(projectId) ?? UNKNOWN;
  const columns = rows.map(columnsOf);
  const { links, head: next } = extendChain(projectId, head, columns);
  const values = columns.map((c, i) => [
    c.ts,
    c.op,
    c.actorType,
    c.actorId,
    c.keyId,
    c.agent,
    c.platform,
    c.via,
    c.subject,
    c.inputDigest,
    c.outputDigest,
    links[i].seq,
    links[i].prevHash,
    links[i].hash,
  ]);
  const [{ chained }] = await insertEntries(db, projectId, head.seq, head.hash, next.seq, next.hash, JSON.stringify(values));
  if (chained) knownHeads().set(projectId, next);
  else sealSoon(projectId); // its lockHead learns the head for the next time
}

/** Each project's rows on their own; one result per row, its project's error if its insert failed. */
async function insertRows(db: Db, rows: Row[]): Promise<(unknown | undefined)[]> {
  const byProject = new Map<string, Row[]>();
  for (const r of rows) {
    const mine = byProject.get(r.projectId);
    if (mine) mine.push(r);
    else byProject.set(r.projectId, [r]);
  }
  const outcomes = new Map<string, unknown>();
  await Promise.all([...byProject].map(([projectId, mine]) => appendProject(db, projectId, mine).catch((err: unknown) => outcomes.set(projectId, err))));
  return rows.map((r) => outcomes.get(r.projectId));
}

const appendCoalesced = coalesce("ledger entries", MAX_ROWS, insertRows);

/**
 * Entries written outside a transaction (read-only and waiting tool calls): concurrent calls share an INSERT and
 * its commit instead of paying one each, and their entries are chained as they go in when the head is free.
 * Every caller still waits until its own entry is committed.
 */
export async function appendBatched(row: Row): Promise<void> {
  const failure = await appendCoalesced(row);
  if (failure !== undefined) throw failure;
}
