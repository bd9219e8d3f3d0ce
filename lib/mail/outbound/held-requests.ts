import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailBatches } from "@/lib/db/schema/mail";

/**
 * The approval request of each batch that has one (email_send held under the policy), so the Outbound list links
 * a message waiting for approval to the request that decides it. One query for the page.
 */
export async function heldRequestsOf(db: Executor, projectId: string, batchIds: Array<string | null>): Promise<Map<string, string>> {
  const ids = [...new Set(batchIds.filter((b): b is string => !!b))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: mailBatches.id, requestId: mailBatches.requestId })
    .from(mailBatches)
    .where(and(eq(mailBatches.projectId, projectId), inArray(mailBatches.id, ids), isNotNull(mailBatches.requestId)));
  return new Map(rows.map((r) => [r.id, r.requestId as string]));
}
