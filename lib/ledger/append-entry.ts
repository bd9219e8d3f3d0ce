import type { Actor } from "@/lib/actor";
import { isTransaction, type Executor } from "@/lib/db/client";
import { appendBatched } from "@/lib/ledger/append-batcher";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { digest } from "@/lib/ledger/canonical";
import { sealSoon } from "@/lib/ledger/seal-entries";

export interface AppendOptions {
  actor: Actor;
  op: string;
  subject?: string | null;
  input?: unknown;
  output?: unknown;
}

/**
 * Appends one entry inside the caller's transaction, so a mutation and its entry commit together (or neither);
 * given the database itself, as one INSERT (possibly shared with concurrent appends) committed before it returns.
 * The chain (seq, prev_hash, hash) is assigned by the sealer moments after the commit.
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
    outputDigest: digest(opts.output),
  };
  // Outside a transaction nothing else commits with the entry, so it may share its INSERT with concurrent calls.
  if (isTransaction(tx)) await tx.insert(ledgerEntries).values(row);
  else await appendBatched(row);
  sealSoon(actor.projectId);
}
