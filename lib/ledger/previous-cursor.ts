import { and, asc, gt } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { ledgerFilterWhere, type LedgerFilter } from "@/lib/ledger/query-ledger";

/**
 * The cursor that shows the page before (newer than) a page whose newest entry is `firstSeq`, so "Previous" works
 * from a shared URL without a history of cursors. `null` means the previous page is the first one (no cursor);
 * `undefined` means there is no newer entry at all.
 */
export async function previousCursor(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId">; firstSeq: number } & Omit<LedgerFilter, "cursor">,
): Promise<number | null | undefined> {
  const rows = await db
    .select({ seq: ledgerEntries.seq })
    .from(ledgerEntries)
    .where(and(...ledgerFilterWhere(opts.actor.projectId, opts), gt(ledgerEntries.seq, opts.firstSeq)))
    .orderBy(asc(ledgerEntries.seq))
    .limit(opts.limit + 1);
  if (rows.length === 0) return undefined;
  if (rows.length <= opts.limit) return null;
  // A page holds the `limit` largest seqs below its cursor: one above the newest of those rows.
  return Number(rows[opts.limit - 1].seq) + 1;
}
