import { and, eq, sql } from "drizzle-orm";
import { systemActor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { approvalRequests, type ApprovalRequest } from "@/lib/db/schema/approvals";
import { resolveRequest } from "@/lib/approvals/resolve-request";
import { recordSystemAct } from "@/lib/ledger/record-system-act";

/**
 * Expires pending requests whose time ran out (all due ones, or one project's, or one request), each with its
 * `request.resolved` event. `decided_at` is the exact expiry time, whenever the sweep gets to it. SKIP LOCKED lets
 * several instances sweep at once; a request a person is deciding right now is left to that decision, which
 * itself refuses to decide after `expires_at`.
 */
export async function expireRequests(tx: Executor, opts: { projectId?: string; requestId?: string; limit?: number } = {}): Promise<ApprovalRequest[]> {
  const due = and(
    eq(approvalRequests.status, "pending"),
    sql`${approvalRequests.expiresAt} <= now()`,
    opts.projectId ? eq(approvalRequests.projectId, opts.projectId) : undefined,
    opts.requestId ? eq(approvalRequests.id, opts.requestId) : undefined,
  );
  const rows = await tx
    .update(approvalRequests)
    .set({ status: "expired", decidedAt: sql`${approvalRequests.expiresAt}`, updatedAt: new Date() })
    .where(
      sql`${approvalRequests.id} in (select ${approvalRequests.id} from ${approvalRequests} where ${due}
        order by ${approvalRequests.expiresAt} limit ${opts.limit ?? 100} for update skip locked)`,
    )
    .returning();
  for (const row of rows) {
    const { record } = await resolveRequest(tx, row, { actor: systemActor(row.projectId) });
    await recordSystemAct(tx, { projectId: row.projectId, op: "request.expire", ...record });
  }
  return rows;
}
