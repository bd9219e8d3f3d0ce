import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, type ApprovalChannel } from "@/lib/db/schema/approvals";
import { ensureOwnerChannel } from "@/lib/channels/ensure-owner-channel";

/** The project's channels that are not removed, owner first, then oldest first. */
export async function listChannels(db: Executor, projectId: string): Promise<ApprovalChannel[]> {
  await ensureOwnerChannel(db, projectId);
  return db
    .select()
    .from(approvalChannels)
    .where(and(eq(approvalChannels.projectId, projectId), ne(approvalChannels.status, "removed")))
    .orderBy(sql`${approvalChannels.kind} = 'owner' desc`, asc(approvalChannels.createdAt), asc(approvalChannels.id));
}

export async function findChannel(db: Executor, projectId: string, channelId: string): Promise<ApprovalChannel | null> {
  const [row] = await db
    .select()
    .from(approvalChannels)
    .where(and(eq(approvalChannels.projectId, projectId), eq(approvalChannels.id, channelId)));
  return row ?? null;
}
