import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { resolveRequest } from "@/lib/approvals/resolve-request";

/**
 * Withdraws the approval request of a draft the agent deleted: the request is closed as denied (the closest of the
 * module's outcomes; the comment says why), through resolveRequest like any decision, so its `request.resolved`
 * event, callback and the Telegram and email messages follow. The caller deletes the draft first: the draft's
 * settle then finds nothing and does nothing. A request someone decided meanwhile is left as it is.
 */
export async function cancelDraftApproval(tx: Executor, o: { actor: Actor; requestId: string; draftId: string }): Promise<boolean> {
  const [row] = await tx
    .update(approvalRequests)
    .set({
      status: "denied",
      comment: `Withdrawn: draft ${o.draftId} was deleted before a decision.`,
      decidedBy: o.actor.agent ? `agent:${o.actor.agent}` : o.actor.keyId ? `key:${o.actor.keyId}` : "agent",
      decidedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(approvalRequests.projectId, o.actor.projectId), eq(approvalRequests.id, o.requestId), eq(approvalRequests.status, "pending")))
    .returning();
  if (!row) return false;
  await resolveRequest(tx, row, { actor: o.actor });
  return true;
}
