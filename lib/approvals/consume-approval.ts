import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { AppError } from "@/lib/errors";

/**
 * Marks an approved tool request used, in the transaction that acts on it, so one approval gives one result even
 * when two calls race with the same request_id.
 */
export async function consumeApproval(tx: Executor, opts: { projectId: string; requestId: string }) {
  const [row] = await tx
    .update(approvalRequests)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(approvalRequests.projectId, opts.projectId),
        eq(approvalRequests.id, opts.requestId),
        eq(approvalRequests.status, "approved"),
        isNull(approvalRequests.consumedAt),
      ),
    )
    .returning({ id: approvalRequests.id });
  if (!row) {
    throw new AppError("CONFLICT", `Approval ${opts.requestId} has given its one result already.`, { fix: "Make a new call without approval to ask again." });
  }
}
