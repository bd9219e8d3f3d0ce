import { eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { ledgerEntries, ledgerHeads } from "@/lib/db/schema/ledger";
import { digest, entryHash, GENESIS_HASH } from "@/lib/ledger/canonical";

export interface AppendOptions {
  actor: Actor;
  op: string;
  subject?: string | null;
  input?: unknown;
  output?: unknown;
}

/**
 * Appends one entry inside the caller's transaction, so a mutation and its entry commit together. Bumping the head
 * row locks it: concurrent appends to one project take seq numbers one at a time, and the lock is held only for
 * the rest of the caller's transaction (so callers append last).
 */
export async function appendEntry(tx: Executor, opts: AppendOptions): Promise<{ seq: number; hash: string }> {
  const { actor } = opts;
  let [head] = await tx
    .update(ledgerHeads)
    .set({ seq: sql`${ledgerHeads.seq} + 1` })
    .where(eq(ledgerHeads.projectId, actor.projectId))
    .returning({ seq: ledgerHeads.seq, prevHash: ledgerHeads.hash });
  if (!head) {
    await tx.insert(ledgerHeads).values({ projectId: actor.projectId, seq: 0, hash: GENESIS_HASH }).onConflictDoNothing();
    return appendEntry(tx, opts);
  }
  const entry = {
    projectId: actor.projectId,
    seq: Number(head.seq),
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
    prevHash: head.prevHash,
  };
  const hash = entryHash(entry);
  await tx.insert(ledgerEntries).values({ ...entry, hash });
  await tx.update(ledgerHeads).set({ hash }).where(eq(ledgerHeads.projectId, actor.projectId));
  return { seq: entry.seq, hash };
}
