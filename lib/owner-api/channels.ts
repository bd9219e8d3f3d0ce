import { z } from "zod";
import { callbackSecret, rotateCallbackSecret } from "@/lib/approvals/callbacks/callback-secret";
import { addChannel, MAX_CHANNELS_PER_PROJECT } from "@/lib/channels/add-channel";
import { approveChannel } from "@/lib/channels/approve-channel";
import { channelView } from "@/lib/channels/channel-view";
import { listChannels } from "@/lib/channels/list-channels";
import { removeChannel } from "@/lib/channels/remove-channel";
import { checkBotToken, removeBotToken, saveBotToken } from "@/lib/telegram/set-bot-token";
import { telegramStatus } from "@/lib/telegram/telegram-status";
import { channelAdd } from "@/lib/tools/approvals/channel-add";
import { channelShape } from "@/lib/tools/approvals/channel-shape";
import { toolOpOf } from "@/lib/tools/registry";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/**
 * The Channels screen over owner REST: the same domain functions and ledger ops as its actions
 * (app/(dashboard)/channels/actions.ts). The owner sees addresses unmasked, as on the screen.
 */

const channelId = z.string().regex(/^chn_[A-Za-z0-9]{1,40}$/, "must be a channel id (chn_…)");
const CALLBACK_SECRET = "callback-secret";

export const listChannelsRoute = defineOwnerRoute({
  name: "owner_channels_list",
  description: "Lists the project's approval channels, owner first, with status and address.",
  input: z.object({}).strict(),
  output: z.object({
    channels: z.array(channelShape.extend({ address: z.string().nullable().describe("Email channels: the address, in full.") })),
  }),
  rest: { method: "GET", path: "/owner/channels" },
  handler: async (ctx) => ({
    channels: (await listChannels(ctx.db, ctx.actor.projectId)).map((c) => ({ ...channelView(c), address: c.address })),
  }),
});

export const addChannelRoute = defineOwnerRoute({
  name: "owner_channels_add",
  description:
    'Adds a channel. Email: `{kind: "email", address, label}` mails a confirmation link; once it is opened the channel is active (the owner added it, so no approval follows). Telegram: `{kind: "telegram", label}` returns the t.me `link` to open. Email to an address outside this instance needs a mail relay (PUT /owner/mail/relay).' +
    ` A project has at most ${MAX_CHANNELS_PER_PROJECT} channels, the owner's included (QUOTA_EXCEEDED past that).`,
  // The agent tool's own schemas: one definition of what a channel request is and what it answers.
  input: channelAdd.input,
  output: channelAdd.output,
  rest: { method: "POST", path: "/owner/channels" },
  status: 201,
  op: toolOpOf("channel_add"),
  handler: async (ctx, input) => {
    const out = await addChannel(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = out.channel_id;
    return out;
  },
});

export const approveChannelRoute = defineOwnerRoute({
  name: "owner_channels_approve",
  description: "Activates a channel an agent added, once its person has verified the address or chat.",
  input: z.object({ channel_id: channelId }).strict(),
  output: z.object({ id: z.string(), label: z.string() }),
  rest: { method: "POST", path: "/owner/channels/{channel_id}/approve" },
  op: "channel.approve",
  handler: async (ctx, input) => {
    ctx.subject = input.channel_id;
    const row = await approveChannel(ctx.db, { actor: ctx.actor, channelId: input.channel_id });
    return { id: row.id, label: row.label };
  },
});

export const removeChannelRoute = defineOwnerRoute({
  name: "owner_channels_remove",
  description: "Removes a channel: its links stop working at once and its pending requests move to the owner.",
  input: z.object({ channel_id: channelId }).strict(),
  output: z.object({ channel_id: z.string(), status: z.literal("removed"), moved_requests: z.number().int() }),
  rest: { method: "DELETE", path: "/owner/channels/{channel_id}" },
  op: toolOpOf("channel_remove"),
  handler: async (ctx, input) => {
    ctx.subject = input.channel_id;
    return removeChannel(ctx.db, { actor: ctx.actor, channelId: input.channel_id });
  },
});

export const telegramStatusRoute = defineOwnerRoute({
  name: "owner_telegram_get",
  description: "The project's Telegram bot: whether a token is set, the bot's username, its last error and mode. Never the token.",
  input: z.object({}).strict(),
  output: z.object({ configured: z.boolean(), username: z.string().nullable(), error: z.string().nullable(), mode: z.string() }),
  rest: { method: "GET", path: "/owner/telegram" },
  handler: async (ctx) => telegramStatus(ctx.db, ctx.actor.projectId),
});

export const setBotTokenRoute = defineOwnerRoute({
  name: "owner_telegram_set_token",
  description: "Sets the Telegram bot token (checked with getMe, stored encrypted, never ledgered); the bot restarts on every instance.",
  input: z.object({ token: z.string().trim().min(1).max(200) }).strict(),
  output: z.object({ username: z.string(), bot_id: z.string() }),
  rest: { method: "PUT", path: "/owner/telegram" },
  op: "telegram.configure",
  ledgerInput: () => ({}),
  prepare: (_ctx, input) => checkBotToken(input.token),
  handler: async (ctx) => {
    const bot = await saveBotToken(ctx.db, { actor: ctx.actor, checked: ctx.prepared });
    ctx.subject = `telegram:@${bot.username}`;
    return bot;
  },
});

export const removeBotTokenRoute = defineOwnerRoute({
  name: "owner_telegram_remove",
  description: "Removes the Telegram bot token: Telegram channels stop receiving requests.",
  input: z.object({}).strict(),
  output: z.object({ removed: z.literal(true) }),
  rest: { method: "DELETE", path: "/owner/telegram" },
  op: "telegram.remove",
  handler: async (ctx) => {
    ctx.subject = "telegram";
    await removeBotToken(ctx.db, { actor: ctx.actor });
    return { removed: true as const };
  },
});

export const revealCallbackSecretRoute = defineOwnerRoute({
  name: "owner_callback_secret_reveal",
  description:
    "The secret that signs approval callbacks (receivers verify with it), made on first use. A POST: revealing it is ledgered, and no GET changes anything.",
  input: z.object({}).strict(),
  output: z.object({ secret: z.string() }),
  rest: { method: "POST", path: "/owner/callback-secret/reveal" },
  op: "callback_secret.reveal",
  handler: async (ctx) => {
    ctx.subject = CALLBACK_SECRET;
    return { secret: await callbackSecret(ctx.db, ctx.actor.projectId) };
  },
});

export const rotateCallbackSecretRoute = defineOwnerRoute({
  name: "owner_callback_secret_rotate",
  description:
    "Replaces the callback signing secret, returned once. For 24 hours the replaced one signs callbacks beside it (two v1 signatures), so receivers can switch without refusing one.",
  input: z.object({}).strict(),
  output: z.object({ secret: z.string() }),
  rest: { method: "POST", path: "/owner/callback-secret/rotate" },
  op: "callback_secret.rotate",
  handler: async (ctx) => {
    ctx.subject = CALLBACK_SECRET;
    return { secret: await rotateCallbackSecret(ctx.db, ctx.actor.projectId) };
  },
});
