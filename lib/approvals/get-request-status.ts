import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { policyVersions } from "@/lib/db/schema/approvals";
import { loadRequest } from "@/lib/approvals/decide-request";
import { expireRequests } from "@/lib/approvals/expire-requests";
import { requestView } from "@/lib/approvals/request-view";

/** request_status: the request now; an overdue one is expired here (with its event) rather than shown as pending. */
export async function getRequestStatus(db: Executor, opts: { actor: Actor; requestId: string }) {
  let row = await loadRequest(db, opts.actor.projectId, opts.requestId);
  if (row.status === "pending" && row.expiresAt.getTime() <= Date.now()) {
    await db.transaction((tx) => expireRequests(tx, { projectId: row.projectId, requestId: row.id }));
    row = await loadRequest(db, opts.actor.projectId, opts.requestId);
  }
  return requestView(row, row.kind === "policy" ? { version: await approvedVersion(db, row.projectId, row.id) } : {});
}

export async function approvedVersion(db: Executor, projectId: string, requestId: string): Promise<number | null> {
  const [v] = await db
    .select({ version: policyVersions.version })
    .from(policyVersions)
    .where(and(eq(policyVersions.projectId, projectId), eq(policyVersions.requestId, requestId)));
  return v?.version ?? null;
}
