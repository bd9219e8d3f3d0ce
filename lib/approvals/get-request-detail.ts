import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, approvalDeliveries, approvalRequests } from "@/lib/db/schema/approvals";
import { apiKeys } from "@/lib/db/schema/keys";

/** One request for its dashboard page: the row, the asking key, and where it was sent. */
export async function getRequestDetail(db: Executor, projectId: string, requestId: string) {
  const [found] = await db
    .select({ request: approvalRequests, keyName: apiKeys.name })
    .from(approvalRequests)
    .leftJoin(apiKeys, eq(apiKeys.id, approvalRequests.keyId))
    .where(and(eq(approvalRequests.projectId, projectId), eq(approvalRequests.id, requestId)));
  if (!found) return null;
  const deliveries = await db
    .select({ delivery: approvalDeliveries, label: approvalChannels.label, kind: approvalChannels.kind })
    .from(approvalDeliveries)
    .innerJoin(approvalChannels, eq(approvalChannels.id, approvalDeliveries.channelId))
    .where(eq(approvalDeliveries.requestId, requestId))
    .orderBy(asc(approvalDeliveries.id));
  const channels = await db
    .select({ id: approvalChannels.id, label: approvalChannels.label, kind: approvalChannels.kind })
    .from(approvalChannels)
    .where(eq(approvalChannels.projectId, projectId));
  return { request: { ...found.request, keyName: found.keyName }, deliveries, channels };
}
