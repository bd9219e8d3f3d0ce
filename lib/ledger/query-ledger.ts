import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { ledgerEntries, type LedgerEntry } from "@/lib/db/schema/ledger";

export interface LedgerFilter {
  op?: string;
  agent?: string;
  platform?: string;
  subject?: string;
  since?: Date;
  until?: Date;
  limit: number;
  /** `next_cursor` of the previous page: the last seq it showed. */
  cursor?: number;
}

/** Newest first; the cursor is a seq, so pages stay stable while entries are appended. */
export async function queryLedger(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId"> } & LedgerFilter,
): Promise<{ entries: LedgerEntry[]; nextCursor: number | null }> {
  const where: SQL[] = [eq(ledgerEntries.projectId, opts.actor.projectId)];
  if (opts.op) where.push(eq(ledgerEntries.op, opts.op));
  if (opts.agent) where.push(eq(ledgerEntries.agent, opts.agent));
  if (opts.platform) where.push(eq(ledgerEntries.platform, opts.platform));
  if (opts.subject) where.push(eq(ledgerEntries.subject, opts.subject));
  if (opts.since) where.push(gte(ledgerEntries.ts, opts.since));
  if (opts.until) where.push(lt(ledgerEntries.ts, opts.until));
  if (opts.cursor !== undefined) where.push(lt(ledgerEntries.seq, opts.cursor));
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(and(...where))
    .orderBy(desc(ledgerEntries.seq))
    .limit(opts.limit + 1);
  const entries = rows.slice(0, opts.limit);
  return { entries, nextCursor: rows.length > opts.limit ? entries[entries.length - 1].seq : null };
}
