import { and, desc, eq, gte, isNotNull, lt, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { getDb, type Executor } from "@/lib/db/client";
import { sealProject } from "@/lib/ledger/seal-entries";
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

/** The filter's conditions (without the cursor), shared with the dashboard's paging and export. */
export function ledgerFilterWhere(projectId: string, f: Omit<LedgerFilter, "limit" | "cursor">): SQL[] {
  const where: SQL[] = [eq(ledgerEntries.projectId, projectId), isNotNull(ledgerEntries.seq)];
  if (f.op) where.push(eq(ledgerEntries.op, f.op));
  if (f.agent) where.push(eq(ledgerEntries.agent, f.agent));
  if (f.platform) where.push(eq(ledgerEntries.platform, f.platform));
  if (f.subject) where.push(eq(ledgerEntries.subject, f.subject));
  if (f.since) where.push(gte(ledgerEntries.ts, f.since));
  if (f.until) where.push(lt(ledgerEntries.ts, f.until));
  return where;
}

/**
 * Newest first; the cursor is a seq, so pages stay stable while entries are appended. Entries committed a moment
 * ago are chained first, on a connection of their own, so a reader always sees them with their seq: no transaction
 * may be open around this (on PGlite, the one connection, it would wait on itself for good).
 */
export async function queryLedger(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId"> } & LedgerFilter,
): Promise<{ entries: LedgerEntry[]; nextCursor: number | null }> {
  await sealProject(await getDb(), opts.actor.projectId);
  return readLedgerPage(db, opts);
}

/** One page of what is chained already, for a reader that sealed first and then reads inside a transaction (the export). */
export async function readLedgerPage(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId"> } & LedgerFilter,
): Promise<{ entries: LedgerEntry[]; nextCursor: number | null }> {
  const where = ledgerFilterWhere(opts.actor.projectId, opts);
  if (opts.cursor !== undefined) where.push(lt(ledgerEntries.seq, opts.cursor));
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(and(...where))
    .orderBy(desc(ledgerEntries.seq))
    .limit(opts.limit + 1);
  const entries = rows.slice(0, opts.limit);
  return { entries, nextCursor: rows.length > opts.limit ? Number(entries[entries.length - 1].seq) : null };
}
