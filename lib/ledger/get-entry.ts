import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { getDb, type Executor } from "@/lib/db/client";
import { sealProject } from "@/lib/ledger/seal-entries";
import { ledgerEntries, type LedgerEntry } from "@/lib/db/schema/ledger";

/** One entry of the actor's project by seq, or null. */
export async function getLedgerEntry(db: Executor, opts: { actor: Pick<Actor, "projectId">; seq: number }): Promise<LedgerEntry | null> {
  await sealProject(await getDb(), opts.actor.projectId);
  const [row] = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, opts.actor.projectId), eq(ledgerEntries.seq, opts.seq)));
  return row ?? null;
}
