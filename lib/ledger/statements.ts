import { statement } from "@/lib/db/statement";
import { ENTRY_COLUMNS, type EntryColumns } from "@/lib/ledger/canonical";

/**
 * The ledger's hand-written SQL, in one place. Every tool call appends, seals or reads through these, so they are
 * prepared texts rather than builder queries (lib/db/statement.ts). Variable-size batches go as one jsonb
 * parameter: the same text for any number of rows, prepared once per connection; jsonb, parsed once, where json's
 * `->>` re-parses each element per column (~35–40 against ~55–75 µs of Postgres CPU per entry).
 */

/** One entry inside its call's transaction, unchained: the sealer chains it after the commit. */
export const insertEntry = statement<never, (string | null)[]>(`
  insert into ledger_entries (project_id, ts, op, actor_type, actor_id, key_id, agent, platform, via, subject, input_digest, output_digest)
  values ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`);

/**
 * A project's entries in one statement, chained from ($2, $3) if that is still the chain's head, nobody holds it
 * and no committed entry waits for the sealer — then the head moves to ($4, $5) and `chained` is true. Otherwise
 * they go in unchained, and the sealer chains them after those that wait (in id order): chained at once ahead of
 * them, a read made after a write had committed took an earlier seq than the write's entry.
 */
export const insertEntries = statement<{ chained: boolean }, [projectId: string, seq: number, hash: string, newSeq: number, newHash: string, rows: string]>(`
  with head as (
    select project_id from ledger_heads where project_id = $1 and seq = $2 and hash = $3
      and not exists (select from ledger_entries where project_id = $1 and seq is null)
    for update skip locked
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

/** Readers call the sealer before every read: one index probe instead of a locking transaction when all is sealed. */
export const anyUnsealed = statement<{ id: number }, [projectId: string]>(`select id from ledger_entries where project_id = $1 and seq is null limit 1`);

export const unsealedRows = statement<EntryColumns & { id: number }, [projectId: string, limit: number]>(`
  select id, ${ENTRY_COLUMNS}
  from ledger_entries where project_id = $1 and seq is null order by id limit $2`);

/** Gives each listed entry ([id, seq, prev_hash, hash]) its link. */
export const chainEntries = statement<never, [projectId: string, links: string]>(`
  update ledger_entries e set seq = (v->>1)::bigint, prev_hash = v->>2, hash = v->>3
  from jsonb_array_elements($2::jsonb) as v
  where e.project_id = $1 and e.id = (v->>0)::bigint`);

/** The project's head row, created at genesis if need be, and locked until the transaction ends (the no-op update). */
export const lockHeadRow = statement<{ seq: number; hash: string }, [projectId: string, genesis: string]>(`
  insert into ledger_heads (project_id, seq, hash) values ($1, 0, $2)
  on conflict (project_id) do update set seq = ledger_heads.seq
  returning seq, hash`);

export const moveHeadRow = statement<never, [projectId: string, seq: number, hash: string]>(
  `update ledger_heads set seq = $2, hash = $3 where project_id = $1`,
);

/**
 * The head row (null seq and hash for none) and the last sealed entry's seq (0 for none), read in one statement so
 * that a seal committing meanwhile cannot show one without the other: verify checks up to the later of the two.
 */
export const chainEnds = statement<{ headSeq: number | null; headHash: string | null; lastSeq: number; firstSeq: number | null }, [projectId: string]>(`
  select h.seq as head_seq, h.hash as head_hash,
         (select coalesce(max(seq), 0) from ledger_entries where project_id = $1 and seq is not null)::int8 as last_seq,
         (select min(seq) from ledger_entries where project_id = $1 and seq is not null)::int8 as first_seq
  from (select 1) one left join ledger_heads h on h.project_id = $1`);

export const hashAt = statement<{ hash: string }, [projectId: string, seq: number]>(`select hash from ledger_entries where project_id = $1 and seq = $2`);

export const chainedRange = statement<EntryColumns & { seq: number; prevHash: string; hash: string }, [projectId: string, from: number, to: number]>(`
  select seq, ${ENTRY_COLUMNS}, prev_hash, hash
  from ledger_entries
  where project_id = $1 and seq >= $2 and seq <= $3
  order by seq`);

/** JSON text of a value exactly as JSON.stringify writes it (to_json escapes strings the same way), null as `null`. */
const j = (column: string) => `coalesce(to_json(${column})::text, 'null')`;

/**
 * The canonical bytes of lib/ledger/canonical.ts built by Postgres: a JSON array without spaces, the timestamp in
 * toISOString() form. Kept beside entryHash on purpose — when they ever disagree, verifyLedger's JS pass (which
 * re-checks from the first entry this scan suspects) has the last word, so a drift costs speed, never a false alarm.
 */
const CANONICAL = `'["brynth-ledger-v1",' || ${[
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
].join(` || ',' || `)} || ']'`;

/**
 * One slice [$2, $3] of a chain, read from the entry before it so the first link is checked too (or against the
 * anchor $4 at the start of the range): the first seq after a gap, with a hash mismatch or a broken link.
 */
export const scanSlice = statement<
  { firstBad: number | null; rows: number; maxSeq: number | null },
  [projectId: string, start: number, end: number, anchor: string | null]
>(`
  select min(case
               when seq <> coalesce(prev_seq + 1, $2::bigint) then coalesce(prev_seq + 1, $2::bigint)
               when prev_hash is distinct from coalesce(prev, $4::text) then seq
               when encode(sha256(convert_to(${CANONICAL}, 'UTF8')), 'hex') is distinct from hash then seq
             end) as first_bad,
             count(*) as rows, max(seq) as max_seq
  from (
    select *, lag(seq) over w as prev_seq, lag(hash) over w as prev
    from ledger_entries
    where project_id = $1 and seq >= $2::bigint - 1 and seq <= $3
    window w as (order by seq)
  ) s
  where seq >= $2`);
