import type { Db } from "@/lib/db/client";
import { coalesce } from "@/lib/db/coalesce";
import { statement } from "@/lib/db/statement";
import type { ledgerEntries } from "@/lib/db/schema/ledger";
import type { EntryColumns } from "@/lib/ledger/canonical";
import { extendChain, knownHeads, type ChainHead } from "@/lib/ledger/chain-head";
import { sealSoon } from "@/lib/ledger/seal-entries";

type Row = typeof ledgerEntries.$inferInsert;

/** Rows per statement: one JSON parameter, so the only bound is the size of one message. */
const MAX_ROWS = 2000;

/**
 * A project's entries in one statement, chained from `head` if that is still the chain's head and nobody holds it:
 * then the head moves to the last of them and `chained` is true. Otherwise they go in unchained, for the sealer
 * (seal-entries.ts) — a call never waits for a head held through a sealing transaction.
 *
 * The rows go as one JSON parameter: the statement's text is the same for any number of rows, so each connection
 * prepares it once (a VALUES list would be a new statement, and a new server-side prepare, for every batch size).
 * jsonb, not json: `->>` on json re-parses the element text for each column, which made the insert cost Postgres
 * ~75 µs of CPU per row against ~40 in batches of 8.
 */
const insertEntries = statement<{ chained: boolean }, [projectId: string, seq: number, hash: string, newSeq: number, newHash: string, rows: string]>(`
  with head as (
    select project_id from ledger_heads where project_id = $1 and seq = $2 and hash = $3 for update skip locked
  ), moved as (
    update ledger_heads h set seq = $4, hash = $5 from head where h.project_id = head.project_id returning 1
  ), chained as (
    select exists (select from moved) as yes
  ), inserted as (
    insert into ledger_entries
      (project_id, ts, op, actor_type, actor_id, key_id, agent, platform, via, subject, input_digest, output_digest, seq, prev_hash, hash)
    select $1, (r->>0)::timestamptz, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, r->>7, r->>8, r->>9, r->>10,
      case when chained.yes then (r->>11)::bigint end, case when chained.yes then r->>12 end, case when chained.yes then r->>13 end
    from jsonb_array_elements($6::jsonb) as r, chained
  )
  select yes as chained from chained`);

const columnsOf = (r: Row): EntryColumns => ({
  ts: r.ts.toISOString(),
  op: r.op,
  actor_type: r.actorType,
  actor_id: r.actorId ?? null,
  key_id: r.keyId ?? null,
  agent: r.agent ?? null,
  platform: r.platform ?? null,
  via: r.via,
  subject: r.subject ?? null,
  input_digest: r.inputDigest ?? null,
  output_digest: r.outputDigest ?? null,
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
  const values = columns.map((c, i) => [c.ts, c.op, c.actor_type, c.actor_id, c.key_id, c.agent, c.platform, c.via, c.subject, c.input_digest, c.output_digest, links[i].seq, links[i].prevHash, links[i].hash]);
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
  await Promise.all(
    [...byProject].map(([projectId, mine]) => appendProject(db, projectId, mine).catch((err: unknown) => outcomes.set(projectId, err))),
  );
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
