import { and, eq, ne, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, approvalRequests } from "@/lib/db/schema/approvals";
import { withdrawRequest } from "@/lib/approvals/withdraw-request";
import { AppError, notFound } from "@/lib/errors";
import { ensureOwnerChannel } from "@/lib/channels/ensure-owner-channel";
import { channelsTurn } from "@/lib/channels/channels-turn";
import { findChannel } from "@/lib/channels/list-channels";
import { takeTurn } from "@/lib/db/turn-lock";

/**
 * Removes a channel: its links and buttons stop working at once (they are checked against the channel's status),
 * pending requests that asked it are moved to the owner channel, and pending policy proposals whose rules name it
 * are withdrawn. The owner channel cannot be removed.
 */
export async function removeChannel(tx: Executor, opts: { actor: Actor; channelId: string }) {
  const { actor } = opts;
  // Requests being written now that ask this channel commit first, so the move below finds them (channels-turn.ts).
  await takeTurn(tx, channelsTurn(actor.projectId));
  const found = await findChannel(tx, actor.projectId, opts.channelId);
  const missing = () => notFound(`Channel ${opts.channelId}`, "List the project's channels with channel_list.");
  if (!found || found.status === "removed") throw missing();
  if (found.kind === "owner") {
    throw new AppError("forbidden", "The owner channel cannot be removed.", { fix: "Remove email or Telegram channels only." });
  }
  const now = new Date();
  // Only a channel not removed yet: the read above does not lock, so of calls racing to remove it each would
  // otherwise answer `removed` (and be ledgered as the removal); the row lock makes the others find it removed.
  const [removed] = await tx
    .update(approvalChannels)
    .set({ status: "removed", removedAt: now, verifyTokenHash: null, updatedAt: now })
    .where(and(eq(approvalChannels.projectId, actor.projectId), eq(approvalChannels.id, found.id), ne(approvalChannels.status, "removed")))
    .returning({ id: approvalChannels.id });
  if (!removed) throw missing();
  const owner = await ensureOwnerChannel(tx, actor.projectId);
  // Drop the channel from each pending request's approvers and make sure the owner is among them.
  const moved = await tx
    .update(approvalRequests)
    .set({
      approvers: sql`(select coalesce(jsonb_agg(distinct a), '[]'::jsonb) from jsonb_array_elements_text(
        (${approvalRequests.approvers} - ${found.id}) || jsonb_build_array(${owner.id}::text)) a)`,
      updatedAt: now,
    })
    .where(and(eq(approvalRequests.projectId, actor.projectId), eq(approvalRequests.status, "pending"), sql`${approvalRequests.approvers} ? ${found.id}`))
    .returning({ id: approvalRequests.id });
  // A policy proposal whose rules name it can no longer be applied as shown (a policy in force names live channels).
  const proposals = await tx
    .select({ id: approvalRequests.id })
    .from(approvalRequests)
    .where(
      and(
        eq(approvalRequests.projectId, actor.projectId),
        eq(approvalRequests.status, "pending"),
        eq(approvalRequests.kind, "policy"),
        sql`jsonb_path_exists(${approvalRequests.payload}::jsonb, '$.rules[*].approvers[*] ? (@ == $id)', jsonb_build_object('id', ${found.id}::text))`,
      ),
    );
  const why = `channel ${found.label} (${found.id}), which its rules name, was removed before a decision.`;
  for (const p of proposals) await withdrawRequest(tx, { actor, requestId: p.id, why });
  return { channel_id: found.id, status: "removed" as const, moved_requests: moved.length };
}
