import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
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
 * Appends one entry inside the caller's transaction, so a mutation and its entry commit together (or neither).
 * The chain (seq, prev_hash, hash) is assigned by the sealer moments after the commit.
 */
export async function appendEntry(tx: Executor, opts: AppendOptions): Promise<void> {
  const { actor } = opts;
  await tx.insert(ledgerEntries).values({
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
  });
  sealSoon(actor.projectId);
}
