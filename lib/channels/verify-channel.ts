import { and, eq, gt } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, type ApprovalChannel } from "@/lib/db/schema/approvals";
import { sha256Hex } from "@/lib/crypto/hash";
import type { AppendOptions } from "@/lib/ledger/append-entry";
import { channelActor } from "@/lib/channels/channel-actor";

/** The unverified channel a verification token (email link) or start code (Telegram) belongs to, if still valid. */
export async function findByVerifyToken(db: Executor, token: string, kind: "email" | "telegram", projectId?: string) {
  const [row] = await db
    .select()
    .from(approvalChannels)
    .where(
      and(
        eq(approvalChannels.verifyTokenHash, sha256Hex(token)),
        eq(approvalChannels.kind, kind),
        eq(approvalChannels.status, "unverified"),
        gt(approvalChannels.verifyExpiresAt, new Date()),
        projectId ? eq(approvalChannels.projectId, projectId) : undefined,
      ),
    );
  return row ?? null;
}

/**
 * Marks a channel verified, once: the token is cleared in the same conditional update, so a replayed link or a
 * second /start finds nothing. A channel the owner added is active at once; others wait for the owner's approval.
 */
export async function verifyChannel(tx: Executor, opts: { channel: ApprovalChannel; telegramChatId?: string }): Promise<ApprovalChannel | null> {
  const c = opts.channel;
  const now = new Date();
  const preApproved = c.approvedBy !== null;
  const [row] = await tx
    .update(approvalChannels)
    .set({
      status: preApproved ? "active" : "awaiting_approval",
      verifyTokenHash: null,
      verifyExpiresAt: null,
      verifiedAt: now,
      approvedAt: preApproved ? now : null,
      telegramChatId: opts.telegramChatId ?? null,
      updatedAt: now,
    })
    .where(and(eq(approvalChannels.id, c.id), eq(approvalChannels.status, "unverified")))
    .returning();
  return row ?? null;
}

/** The entry of a verification, as its pipelines (the emailed link's page, the Telegram bot) write it: the channel's own act. */
export const verifiedEntry = (row: ApprovalChannel): AppendOptions => ({
  actor: channelActor(row),
  op: "channel.verify",
  subject: row.id,
  input: { kind: row.kind },
  output: { status: row.status },
});
