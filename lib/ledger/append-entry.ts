import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { afterCommit, isTransaction } from "@/lib/db/transaction";
import { appendBatched } from "@/lib/ledger/append-batcher";
import { digest, textDigest } from "@/lib/ledger/canonical";
import { sealSoon } from "@/lib/ledger/seal-entries";
import { insertEntry } from "@/lib/ledger/statements";

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
 * Appends one entry. Only the call pipelines call this (run-tool.ts, the owner action client, the owner REST
 * wrapper, the emailed-link and verification handlers, the job and mail intake runners: see README.md here, and
 * ledger-writers.test.ts); how the entry is chained is decided here and nowhere else:
 * - inside a transaction, it goes out with the COMMIT (one write with it on PostgreSQL), so the change and its
 *   entry commit together or not at all, and the sealer chains it once committed;
 * - given the database itself, as one INSERT, possibly shared with concurrent appends, committed before this
 *   returns and chained in the same statement unless the chain's head is busy (append-batcher.ts).
 */
export async function appendEntry(db: Executor, opts: AppendOptions): Promise<void> {
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
  if (!isTransaction(db)) return appendBatched(row);
  insertEntry.withCommit(
    db,
    row.projectId,
    row.ts.toISOString(),
    row.op,
    row.actorType,
    row.actorId,
    row.keyId,
    row.agent,
    row.platform,
    row.via,
    row.subject,
    row.inputDigest,
    row.outputDigest,
  );
  afterCommit(db, () => sealSoon(row.projectId));
}
