"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { addChannel } from "@/lib/channels/add-channel";
import { approveChannel } from "@/lib/channels/approve-channel";
import { removeChannel } from "@/lib/channels/remove-channel";
import { appendEntry } from "@/lib/ledger/append-entry";
import { callbackSecret, rotateCallbackSecret } from "@/lib/approvals/callbacks/callback-secret";
import { removeBotToken, setBotToken } from "@/lib/telegram/set-bot-token";

const channelId = z.object({ channelId: z.string().regex(/^chn_[A-Za-z0-9]{1,40}$/) });
const label = z.string().trim().min(1).max(40).optional();

/** Channels the owner adds still prove their address or chat, then become active without a second approval. */
export const addEmailChannelAction = ownerAction(z.object({ address: z.email().max(254), label }), async (ctx, input) =>
  addChannel(ctx.db, { actor: ctx.actor, kind: "email", address: input.address, label: input.label }),
);

export const addTelegramChannelAction = ownerAction(z.object({ label }), async (ctx, input) =>
  addChannel(ctx.db, { actor: ctx.actor, kind: "telegram", label: input.label }),
);

export const approveChannelAction = ownerAction(channelId, async (ctx, input) => {
  const row = await approveChannel(ctx.db, { actor: ctx.actor, channelId: input.channelId });
  return { id: row.id, label: row.label };
});

export const removeChannelAction = ownerAction(channelId, async (ctx, input) =>
  removeChannel(ctx.db, { actor: ctx.actor, channelId: input.channelId }),
);

/** The token is checked with getMe and stored encrypted; every instance restarts the bot on commit. */
export const setBotTokenAction = ownerAction(z.object({ token: z.string().trim().min(1).max(200) }), async (ctx, input) =>
  setBotToken(ctx.db, { actor: ctx.actor, token: input.token }),
);

export const removeBotTokenAction = ownerAction(z.object({}), async (ctx) => {
  await removeBotToken(ctx.db, { actor: ctx.actor });
  return { removed: true };
});

/** Shown on demand (receivers need it to verify callbacks); reading it is ledgered like any secret access. */
export const revealCallbackSecretAction = ownerAction(z.object({}), async (ctx) => {
  const secret = await callbackSecret(ctx.db, ctx.actor.projectId);
  await appendEntry(ctx.db, { actor: ctx.actor, op: "callback_secret.reveal", subject: "callback-secret" });
  return { secret };
});

export const rotateCallbackSecretAction = ownerAction(z.object({}), async (ctx) => {
  const secret = await rotateCallbackSecret(ctx.db, ctx.actor.projectId);
  await appendEntry(ctx.db, { actor: ctx.actor, op: "callback_secret.rotate", subject: "callback-secret" });
  return { secret };
});
