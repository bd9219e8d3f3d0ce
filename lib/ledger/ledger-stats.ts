import { and, count, desc, eq, gte, isNotNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { getDb, type Executor } from "@/lib/db/client";
import { sealProject } from "@/lib/ledger/seal-entries";
import { ledgerEntries, ledgerHeads } from "@/lib/db/schema/ledger";

type Scope = { actor: Pick<Actor, "projectId"> };

/**
 * Sealed entries since a moment (the overview's "last 24 h"); uses the (project_id, ts) index, which like every
 * reader's index covers sealed entries only (the few of the last moment are sealed within a fraction of a second).
 */
export async function countLedgerEntries(db: Executor, opts: Scope & { since?: Date }): Promise<number> {
  const where = [eq(ledgerEntries.projectId, opts.actor.projectId), isNotNull(ledgerEntries.seq)];
  if (opts.since) where.push(gte(ledgerEntries.ts, opts.since));
  const [row] = await db
    .select({ n: count() })
    .from(ledgerEntries)
    .where(and(...where));
  return Number(row?.n ?? 0);
}

/** The busiest agents since a moment, for the overview chart. Entries without an agent count as "(none)". */
export async function ledgerEntriesByAgent(db: Executor, opts: Scope & { since: Date; limit?: number }): Promise<{ agent: string; entries: number }[]> {
  const n = count();
  const rows = await db
    .select({ agent: ledgerEntries.agent, entries: n })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, opts.actor.projectId), isNotNull(ledgerEntries.seq), gte(ledgerEntries.ts, opts.since)))
    .groupBy(ledgerEntries.agent)
    .orderBy(desc(n))
    .limit(opts.limit ?? 8);
  return rows.map((r) => ({ agent: r.agent ?? "(none)", entries: Number(r.entries) }));
}

/** The latest seq of the project's chain (0 when empty): the verify button's progress total. */
export async function ledgerHeadSeq(db: Executor, opts: Scope): Promise<number> {
  await sealProject(await getDb(), opts.actor.projectId);
  const [head] = await db.select({ seq: ledgerHeads.seq }).from(ledgerHeads).where(eq(ledgerHeads.projectId, opts.actor.projectId));
  return head ? Number(head.seq) : 0;
}
