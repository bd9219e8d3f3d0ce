import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { approvalChannels } from "@/lib/db/schema/approvals";
import { AppError, notFound } from "@/lib/errors";
import { findChannel } from "@/lib/channels/list-channels";

/** The owner activates a verified channel. Only a channel whose person proved the address or chat can be approved. */
export async function approveChannel(tx: Executor, opts: { actor: Actor; channelId: string }) {
  const { actor } = opts;
  const found = await findChannel(tx, actor.projectId, opts.channelId);
  if (!found || found.status === "removed") throw notFound(`Channel ${opts.channelId}`);
  if (found.status !== "awaiting_approval") {
    throw new AppError("CONFLICT", `Channel ${found.label} is ${found.status.replace("_", " ")}, not awaiting approval.`, {
      fix: found.status === "unverified" ? "Wait until its person opens the verification link (email) or presses Start (Telegram)." : "Nothing to do.",
    });
  }
  const now = new Date();
  const [row] = await tx
    .update(approvalChannels)
    .set({ status: "active", approvedAt: now, approvedBy: actor.agent, updatedAt: now })
    .where(and(eq(approvalChannels.projectId, actor.projectId), eq(approvalChannels.id, found.id), eq(approvalChannels.status, "awaiting_approval")))
    .returning();
  if (!row) throw new AppError("CONFLICT", "The channel changed meanwhile.", { fix: "Reload and try again." });
  return row;
}
