import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";

/** The newest ledger entry of a project with this op. */
export async function lastLedgerEntry(projectId: string, op: string) {
  const [entry] = await (await getDb())
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, projectId), eq(ledgerEntries.op, op)))
    .orderBy(desc(ledgerEntries.ts))
    .limit(1);
  return entry;
}
