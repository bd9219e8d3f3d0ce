import { and, count, eq, gt, inArray, isNull, min, ne, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { channelsTurn } from "@/lib/channels/channels-turn";
import { takeTurn } from "@/lib/db/turn-lock";
import { approvalChannels } from "@/lib/db/schema/approvals";
import { sha256Hex } from "@/lib/crypto/hash";
import { AppError } from "@/lib/errors";
import { newId, randomBase62 } from "@/lib/ids";
import { ensureOwnerChannel } from "@/lib/channels/ensure-owner-channel";
import { maskAddress } from "@/lib/channels/channel-view";
import { sendVerificationEmail } from "@/lib/channels/send-verification-email";
import { reserveQuota } from "@/lib/mail/outbound/reserve-quota";
import { telegramStartLink } from "@/lib/telegram/start-link";

/** Email links and Telegram start codes stay valid this long. */
export const VERIFY_TTL_MS = 24 * 3600_000;

/**
 * Channels a project may have that are not removed, the owner's included. An agent's channel_add made one per call
 * with no bound (Telegram ones without even an address to tell them apart), and an unverified channel stays after
 * its link expires: each is listed whole by channel_list, GET /owner/channels and the Channels screen.
 */
export const MAX_CHANNELS_PER_PROJECT = 100;

/**
 * Channels added by agents and not yet approved by the owner (unverified, or verified and awaiting approval) a
 * project may hold at once.
 * Without it, one agent could fill every place under MAX_CHANNELS_PER_PROJECT with channels the owner never asked
 * for, and the owner's own adds were refused until they removed them. The owner's adds are not held to it.
 */
export const MAX_UNAPPROVED_CHANNELS = 10;

/**
 * Verification mails one address may be sent in a day through agents' adds. The project's mail quota bounds the
 * total, but within it channel_add then channel_remove mailed one stranger again and again (note-36).
 */
export const MAX_VERIFICATIONS_PER_ADDRESS = 3;

export interface AddChannelInput {
  kind: "email" | "telegram";
  address?: string;
  label?: string;
}

/**
 * A new channel starts `unverified`: email gets a verification link, Telegram a t.me link with a one-time start code.
 * Verified, it waits for the owner's approval, except when the owner added it (then verification activates it).
 */
export async function addChannel(tx: Executor, opts: { actor: Actor } & AddChannelInput) {
  const { actor } = opts;
  await ensureOwnerChannel(tx, actor.projectId);
  const id = newId("chn");
  const token = randomBase62(opts.kind === "email" ? 32 : 24);
  const expiresAt = new Date(Date.now() + VERIFY_TTL_MS);
  const address = opts.kind === "email" ? opts.address!.toLowerCase() : null;
  // One project's adds take turns: the cap and the duplicate check are then exact (no unique index holds either).
  await takeTurn(tx, channelsTurn(actor.projectId));
  await refuseOverCap(tx, actor.projectId);
  if (actor.type !== "owner") await refuseManyUnapproved(tx, actor.projectId);
  if (address) await refuseDuplicate(tx, actor.projectId, address);
  if (address && actor.type !== "owner") await refuseRepeatedVerification(tx, actor.projectId, address);
  const label = opts.label ?? opts.kind;
  const byOwner = actor.type === "owner";
  // For Telegram the link needs the bot's name: refused here, before anything is written, when no bot is set.
  const link = opts.kind === "telegram" ? await telegramStartLink(tx, actor.projectId, token) : null;
  await tx.insert(approvalChannels).values({
    id,
    projectId: actor.projectId,
    kind: opts.kind,
    label,
    address,
    status: "unverified",
    verifyTokenHash: sha256Hex(token),
    verifyExpiresAt: expiresAt,
    createdBy: actor.agent ?? actor.id,
    approvedBy: byOwner ? actor.agent : null,
  });
  if (address) {
    // An agent's verification mail goes to an address the agent chose, with words it chose (the label): it counts
    // against the project's mail quota as email_send does, or channel_add then channel_remove mailed anyone unbounded.
    if (!byOwner) await reserveQuota(tx, actor.projectId, 1);
    await sendVerificationEmail(tx, {
      projectId: actor.projectId,
      projectName: actor.projectName,
      to: address,
      label,
      token,
      expiresAt,
      addedByOwner: byOwner,
    });
  }
  return {
    channel_id: id,
    kind: opts.kind,
    label,
    status: "unverified" as const,
    address: maskAddress(address),
    link,
    expires_at: expiresAt.toISOString(),
    hint: addHint(opts.kind, address, byOwner),
  };
}

/** What happens next, as it will happen: only a channel an agent added waits for the owner's approval. */
function addHint(kind: "email" | "telegram", address: string | null, byOwner: boolean): string {
  const then = byOwner ? "it becomes active" : "it waits for the owner's approval, then becomes active";
  return kind === "email"
    ? `A verification link was sent to ${address}. Once it is opened and confirmed, ${then} (see channel_list).`
    : `Open the link in Telegram and press Start to link the chat. Then ${then} (see channel_list).`;
}

/** Called in the project's turn (addChannel), so concurrent adds cannot all find room for one more. */
async function refuseOverCap(tx: Executor, projectId: string) {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(approvalChannels)
    .where(and(eq(approvalChannels.projectId, projectId), ne(approvalChannels.status, "removed")));
  if (n >= MAX_CHANNELS_PER_PROJECT) {
    throw new AppError("QUOTA_EXCEEDED", `A project may have at most ${MAX_CHANNELS_PER_PROJECT} channels; this one has ${n}.`, {
      fix: "Remove channels no longer used, unverified ones first (channel_remove).",
    });
  }
}

/** Called in the project's turn (addChannel), like refuseOverCap. */
async function refuseManyUnapproved(tx: Executor, projectId: string) {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(approvalChannels)
    .where(
      and(
        eq(approvalChannels.projectId, projectId),
        inArray(approvalChannels.status, ["unverified", "awaiting_approval"]),
        // An owner's add is approved as it is made (addChannel): these are agents' adds.
        isNull(approvalChannels.approvedBy),
      ),
    );
  if (n >= MAX_UNAPPROVED_CHANNELS) {
    throw new AppError(
      "QUOTA_EXCEEDED",
      `A project may have at most ${MAX_UNAPPROVED_CHANNELS} channels added by agents and not yet approved by the owner; this one has ${n}.`,
      {
        fix: "Wait for the owner to approve them, or remove unverified ones no longer needed (channel_remove).",
      },
    );
  }
}

/** Called in the project's turn (addChannel): every channel row with the address, removed ones too, was one mail. */
async function refuseRepeatedVerification(tx: Executor, projectId: string, address: string) {
  const [{ n, oldest }] = await tx
    .select({ n: count(), oldest: min(approvalChannels.createdAt) })
    .from(approvalChannels)
    .where(
      and(
        eq(approvalChannels.projectId, projectId),
        eq(approvalChannels.address, address),
        gt(approvalChannels.createdAt, sql`now() - make_interval(secs => ${VERIFY_TTL_MS / 1000})`),
      ),
    );
  if (n >= MAX_VERIFICATIONS_PER_ADDRESS && oldest) {
    const again = new Date(new Date(oldest).getTime() + VERIFY_TTL_MS).toISOString();
    throw new AppError(
      "QUOTA_EXCEEDED",
      `${maskAddress(address)} was sent ${n} verification emails in the last 24 hours, the most for one address; it can be added again after ${again}.`,
      { fix: "Ask the person to confirm one of the links already sent, or ask the owner to add the channel in the dashboard.", details: { reset_at: again } },
    );
  }
}

/**
 * No unique index covers the addresses of live channels, so the check runs in the project's turn (addChannel):
 * without it, concurrent adds of one address all found none and each made a channel and sent a verification mail.
 */
async function refuseDuplicate(tx: Executor, projectId: string, address: string) {
  const [dup] = await tx
    .select({ id: approvalChannels.id })
    .from(approvalChannels)
    .where(and(eq(approvalChannels.projectId, projectId), eq(approvalChannels.address, address), ne(approvalChannels.status, "removed")));
  if (dup) {
    throw new AppError("CONFLICT", `${maskAddress(address)} is already channel ${dup.id}.`, {
      fix: "Use that channel (channel_list), or remove it first with channel_remove.",
      details: { field: "address", message: "This address is a channel of the project already." },
    });
  }
}
