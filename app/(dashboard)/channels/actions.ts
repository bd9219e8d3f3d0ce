"use server";

import { z } from "zod";
import { type ActionPrepare, ownerAction } from "@/lib/auth/owner-action";
import { addChannel } from "@/lib/channels/add-channel";
import { approveChannel } from "@/lib/channels/approve-channel";
import { removeChannel } from "@/lib/channels/remove-channel";
import { callbackSecret, rotateCallbackSecret } from "@/lib/approvals/callbacks/callback-secret";
import { type CheckedBotToken, checkBotToken, removeBotToken, saveBotToken } from "@/lib/telegram/set-bot-token";
import { toolOpOf } from "@/lib/tools/registry";

const channelId = z.object({ channelId: z.string().regex(/^chn_[A-Za-z0-9]{1,40}$/) });
const label = z.string().trim().min(1).max(40).optional();
const CALLBACK_SECRET = "callback-secret";

/** Channels the owner adds still prove their address or chat, then become active without a second approval. */
export const addEmailChannelAction = ownerAction(
  z.object({ address: z.email().max(254), label }),
  async (ctx, input) => {
    const out = await addChannel(ctx.db, { actor: ctx.actor, kind: "email", address: input.address, label: input.label });
    ctx.subject = out.channel_id;
    return out;
  },
  { op: toolOpOf("channel_add") },
);

export const addTelegramChannelAction = ownerAction(
  z.object({ label }),
  async (ctx, input) => {
    const out = await addChannel(ctx.db, { actor: ctx.actor, kind: "telegram", label: input.label });
    ctx.subject = out.channel_id;
    return out;
  },
  { op: toolOpOf("channel_add") },
);

export const approveChannelAction = ownerAction(
  channelId,
  async (ctx, input) => {
    ctx.subject = input.channelId;
    const row = await approveChannel(ctx.db, { actor: ctx.actor, channelId: input.channelId });
    return { id: row.id, label: row.label };
  },
  { op: "channel.approve" },
);

export const removeChannelAction = ownerAction(
  channelId,
  async (ctx, input) => {
    ctx.subject = input.channelId;
    return removeChannel(ctx.db, { actor: ctx.actor, channelId: input.channelId });
  },
  { op: toolOpOf("channel_remove") },
);

const checkToken: ActionPrepare<{ token: string }, CheckedBotToken> = (_ctx, input) => checkBotToken(input.token);

/**
 * The token is checked with getMe before the transaction opens, and stored encrypted (never ledgered); every instance
 * restarts the bot on commit.
 */
export const setBotTokenAction = ownerAction(
  z.object({ token: z.string().trim().min(1, "Paste the token @BotFather gave you.").max(200, "A bot token is at most 200 characters.") }),
  async (ctx) => {
    const bot = await saveBotToken(ctx.db, { actor: ctx.actor, checked: ctx.prepared });
    ctx.subject = `telegram:@${bot.username}`;
    return bot;
  },
  { op: "telegram.configure", input: () => ({}) },
  { prepare: checkToken },
);

export const removeBotTokenAction = ownerAction(
  z.object({}),
  async (ctx) => {
    ctx.subject = "telegram";
    await removeBotToken(ctx.db, { actor: ctx.actor });
    return { removed: true };
  },
  { op: "telegram.remove" },
);

/** Shown on demand (receivers need it to verify callbacks); reading it is ledgered like any secret access. */
export const revealCallbackSecretAction = ownerAction(
  z.object({}),
  async (ctx) => {
    ctx.subject = CALLBACK_SECRET;
    return { secret: await callbackSecret(ctx.db, ctx.actor.projectId) };
  },
  { op: "callback_secret.reveal" },
);

export const rotateCallbackSecretAction = ownerAction(
  z.object({}),
  async (ctx) => {
    ctx.subject = CALLBACK_SECRET;
    return { secret: await rotateCallbackSecret(ctx.db, ctx.actor.projectId) };
  },
  { op: "callback_secret.rotate" },
);
