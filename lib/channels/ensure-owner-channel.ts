import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, type ApprovalChannel } from "@/lib/db/schema/approvals";
import { newId } from "@/lib/ids";

/**
 * The owner channel (the owner's dashboard) exists for every project, created the first time approvals touch the
 * project; a unique index makes concurrent first uses agree on one row.
 */
export async function ensureOwnerChannel(db: Executor, projectId: string): Promise<ApprovalChannel> {
  const found = await findOwnerChannel(db, projectId);
  if (found) return found;
  await db
    .insert(approvalChannels)
    .values({ id: newId("chn"), projectId, kind: "owner", label: "owner", status: "active", createdBy: "brynth", approvedAt: new Date(), approvedBy: "brynth" })
    .onConflictDoNothing();
  return (await findOwnerChannel(db, projectId))!;
}

async function findOwnerChannel(db: Executor, projectId: string) {
  const [row] = await db
    .select()
    .from(approvalChannels)
    .where(and(eq(approvalChannels.projectId, projectId), eq(approvalChannels.kind, "owner")));
  return row ?? null;
}
