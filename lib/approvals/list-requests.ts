import { storableTime } from "@/lib/db/storable";
import { and, asc, count, desc, eq, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalRequests, requestKinds, requestStatuses, type ApprovalRequest } from "@/lib/db/schema/approvals";
import { apiKeys } from "@/lib/db/schema/keys";

export type RequestRow = ApprovalRequest & { keyName: string | null };

const withKey = {
  request: approvalRequests,
  keyName: apiKeys.name,
};

/** Pending requests of a project, oldest first (the one waiting longest on top), with the asking key's name. */
export async function listPendingRequests(db: Executor, projectId: string, limit = 200): Promise<RequestRow[]> {
  const rows = await db
    .select(withKey)
    .from(approvalRequests)
    .leftJoin(apiKeys, eq(apiKeys.id, approvalRequests.keyId))
    .where(and(eq(approvalRequests.projectId, projectId), eq(approvalRequests.status, "pending")))
    .orderBy(asc(approvalRequests.createdAt), asc(approvalRequests.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.request, keyName: r.keyName }));
}

export async function countPendingRequests(db: Executor, projectId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(approvalRequests)
    .where(and(eq(approvalRequests.projectId, projectId), eq(approvalRequests.status, "pending"), sql`${approvalRequests.expiresAt} > now()`));
  return Number(row?.n ?? 0);
}

export interface HistoryFilters {
  status?: string;
  kind?: string;
  /** Matches action or summary, case-insensitive. */
  q?: string;
  agent?: string;
  /** `created_at|id` of the last row of the previous page. */
  before?: string;
}

export const historyCursor = (r: ApprovalRequest) => `${r.createdAt.toISOString()}|${r.id}`;

/** Every request, newest first, filtered; cursor pagination on (created_at, id). */
export async function listRequestHistory(db: Executor, projectId: string, f: HistoryFilters, limit = 50) {
  const where: (SQL | undefined)[] = [eq(approvalRequests.projectId, projectId)];
  if (f.status && (requestStatuses as readonly string[]).includes(f.status)) where.push(eq(approvalRequests.status, f.status as ApprovalRequest["status"]));
  if (f.kind && (requestKinds as readonly string[]).includes(f.kind)) where.push(eq(approvalRequests.kind, f.kind as ApprovalRequest["kind"]));
  if (f.q) where.push(or(ilike(approvalRequests.action, `%${escapeLike(f.q)}%`), ilike(approvalRequests.summary, `%${escapeLike(f.q)}%`)));
  if (f.agent) where.push(ilike(approvalRequests.agent, `%${escapeLike(f.agent)}%`));
  const cursor = f.before ? /^(.+)\|(req_[A-Za-z0-9]+)$/.exec(f.before) : null;
  // A time PostgreSQL can hold (years 1–9999): year 0 or 10000 failed the page's query, a 500.
  if (cursor && storableTime(Date.parse(cursor[1]))) {
    const at = new Date(cursor[1]);
    where.push(or(lt(approvalRequests.createdAt, at), and(eq(approvalRequests.createdAt, at), lt(approvalRequests.id, cursor[2]))));
  }
  const rows = await db
    .select(withKey)
    .from(approvalRequests)
    .leftJoin(apiKeys, eq(apiKeys.id, approvalRequests.keyId))
    .where(and(...where))
    .orderBy(desc(approvalRequests.createdAt), desc(approvalRequests.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map((r) => ({ ...r.request, keyName: r.keyName }));
  return { rows: page, next: rows.length > limit ? historyCursor(page[page.length - 1]) : null };
}

/** Decisions by outcome over the last `days` days, for the chart. */
export async function outcomeCounts(db: Executor, projectId: string, days = 7) {
  const rows = await db
    .select({ status: approvalRequests.status, n: count() })
    .from(approvalRequests)
    .where(and(eq(approvalRequests.projectId, projectId), sql`${approvalRequests.createdAt} > now() - make_interval(days => ${days})`))
    .groupBy(approvalRequests.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Partial<Record<ApprovalRequest["status"], number>>;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
