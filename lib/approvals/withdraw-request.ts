import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { expireRequests } from "@/lib/approvals/expire-requests";
import { resolveRequest } from "@/lib/approvals/resolve-request";

/**
 * Withdraws a pending approval request whose action can no longer happen as shown (its draft deleted, the inbox it
 * would be sent from deleted, a channel its proposed rules name removed): the request is closed as denied (the closest of the module's outcomes), its comment
 * `Withdrawn: <why>`, through resolveRequest like any decision, so its `request.resolved` event, callback and the
 * Telegram and email messages follow, and the held send's settle (settleDraftApproval, settleEmailBatch) sees a
 * denial. A request someone decided meanwhile is left as it is; one past its `expires_at` is expired instead (its
 * settle cancels the held send all the same).
 */
export async function withdrawRequest(tx: Executor, o: { actor: Actor; requestId: string; why: string }): Promise<boolean> {
  const [row] = await tx
    .update(approvalRequests)
    .set({
      status: "denied",
      comment: `Withdrawn: ${o.why}`,
      decidedBy: withdrawnBy(o.actor),
      decidedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(approvalRequests.projectId, o.actor.projectId),
        eq(approvalRequests.id, o.requestId),
        eq(approvalRequests.status, "pending"),
        sql`${approvalRequests.expiresAt} > now()`,
      ),
    )
    .returning();
  if (!row) {
    // Past its expires_at but not swept yet: it expired (nothing is decided after expires_at), and says so.
    await expireRequests(tx, { projectId: o.actor.projectId, requestId: o.requestId });
    return false;
  }
  await resolveRequest(tx, row, { actor: o.actor });
  return true;
}

/** decided_by as the Approvals screen shows it: the owner by email (channelDecider's form), an agent, or its key. */
function withdrawnBy(actor: Actor): string {
  if (actor.type === "owner") return `owner:${actor.agent ?? "owner"}`;
  return actor.agent ? `agent:${actor.agent}` : actor.keyId ? `key:${actor.keyId}` : "agent";
}
