import type { Actor } from "@/lib/actor";
import { isTransaction, type Executor } from "@/lib/db/client";
import { appendBatched } from "@/lib/ledger/append-batcher";
import { commitAwaits } from "@/lib/db/pipelined-client";
import { sessionClient, statement } from "@/lib/db/statement";
import { digest, textDigest } from "@/lib/ledger/canonical";
import { sealSoon } from "@/lib/ledger/seal-entries";

/** Every write tool's entry goes through here, so it is one prepared text rather than a builder query each time. */
const insertEntry = statement<never, (string | null)[]>(`
  insert into ledger_entries (project_id, ts, op, actor_type, actor_id, key_id, agent, platform, via, subject, input_digest, output_digest)
  values ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`);

export interface AppendOptions {
  actor: Actor;
  op: string;
  subject?: string | null;
  /** Digested as canonical JSON (keys sorted): callers send the same content in any key order. */
  input?: unknown;
  /** Digested as its JSON text; `outputText` when that text exists already (a tool call's response). */
  output?: unknown;
  outputText?: string;
}

/**
 * Appends one entry inside the caller's transaction, so a mutation and its entry commit together (or neither),
 * and the sealer chains it (seq, prev_hash, hash) moments after the commit; given the database itself, as one
 * INSERT, possibly shared with concurrent appends, committed before it returns and chained in the same statement
 * unless the chain's head is busy (append-batcher.ts).
 */
export async function appendEntry(tx: Executor, opts: AppendOptions): Promise<void> {
  const { actor } = opts;
  const row = {
    projectId: actor.projectId,
    ts: new Date(),
    op: opts.op,
    actorType: actor.type,
    actorId: actor.id,
    keyId: actor.keyId,
    agent: actor.agent,
    platform: actor.platform,
    via: actor.via,
    subject: opts.subject ?? null,
    inputDigest: digest(opts.input),
    outputDigest: opts.outputText !== undefined ? textDigest(opts.outputText) : opts.output === undefined ? null : textDigest(JSON.stringify(opts.output)),
  };
  // Outside a transaction nothing else commits with the entry, so it may share its INSERT with concurrent calls.
  if (isTransaction(tx)) {
    const inserted = insertEntry(tx, row.projectId, row.ts.toISOString(), row.op, row.actorType, row.actorId, row.keyId, row.agent, row.platform, row.via, row.subject, row.inputDigest, row.outputDigest);
    // On PostgreSQL the entry, usually a transaction's last statement, goes out with its COMMIT, which fails if
    // the INSERT does (pipelined-client.ts); elsewhere it is waited for here.
    if (commitAwaits(sessionClient(tx))) inserted.catch(() => {});
    else await inserted;
    sealSoon(actor.projectId);
  } else await appendBatched(row);
}
