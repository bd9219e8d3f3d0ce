import { storableTime } from "@/lib/db/storable";
import { and, asc, count, desc, eq, gt, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalRequests, requestKinds, requestStatuses, type ApprovalRequest } from "@/lib/db/schema/approvals";
import { apiKeys } from "@/lib/db/schema/keys";

export type RequestRow = ApprovalRequest & { keyName: string | null };

const withKey = {
  request: approvalRequests,
  keyName: apiKeys.name,
};

/**
 * Pending requests of a project, oldest first (the one waiting longest on top), with the asking key's name, a page
 * at a time: `after` is the `created_at|id` of the previous page's last row. (Capped at 200 with no next page,
 * a busy project's later requests could not be reached on the screen at all.)
 */
export async function listPendingRequests(db: Executor, projectId: string, o: { after?: string; limit?: number } = {}) {
  const limit = o.limit ?? 100;
  const where: (SQL | undefined)[] = [eq(approvalRequests.projectId, projectId), eq(approvalRequests.status, "pending")];
  const cursor = parseCursor(o.after);
  if (cursor) where.push(or(gt(approvalRequests.createdAt, cursor.at), and(eq(approvalRequests.createdAt, cursor.at), gt(approvalRequests.id, cursor.id))));
  const rows = await db
    .select(withKey)
    .from(approvalRequests)
    .leftJoin(apiKeys, eq(apiKeys.id, approvalRequests.keyId))
    .where(and(...where))
    .orderBy(asc(approvalRequests.createdAt), asc(approvalRequests.id))
    .limit(limit + 1);
  const page: RequestRow[] = rows.slice(0, limit).map((r) => ({ ...r.request, keyName: r.keyName }));
  return { rows: page, next: rows.length > limit ? historyCursor(page[page.length - 1]) : null };
}

/** A `created_at|id` page cursor, or null for none or one PostgreSQL cannot hold (years 1–9999: else a 500). */
function parseCursor(text: string | undefined): { at: Date; id: string } | null {
  const m = text ? /^(.+)\|(req_[A-Za-z0-9]+)$/.exec(text) : null;
  return m && storableTime(Date.parse(m[1])) ? { at: new Date(m[1]), id: m[2] } : null;
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
  const cursor = parseCursor(f.before);
  if (cursor) where.push(or(lt(approvalRequests.createdAt, cursor.at), and(eq(approvalRequests.createdAt, cursor.at), lt(approvalRequests.id, cursor.id))));
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
