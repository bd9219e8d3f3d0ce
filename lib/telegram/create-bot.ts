import { Bot } from "grammy";
import { env } from "@/lib/env";
import type { BotConfig } from "@/lib/telegram/bot-config";
import { handleStart } from "@/lib/telegram/handle-start";
import { handleCallback } from "@/lib/telegram/handle-callback";
import { handleReply } from "@/lib/telegram/handle-reply";

export const ALLOWED_UPDATES = ["message", "callback_query"] as const;

/** A grammy Bot for one project's token with Brynth's three handlers: /start, buttons, replies to prompts. */
export function createBot(cfg: BotConfig): Bot {
  const bot = new Bot(cfg.token, { client: { apiRoot: env().TELEGRAM_API_ROOT } });
  bot.command("start", (ctx) => handleStart(ctx.api, cfg, ctx.message!, typeof ctx.match === "string" ? ctx.match : ""));
  bot.on("callback_query:data", (ctx) => handleCallback(ctx.api, cfg, ctx.callbackQuery));
  bot.on("message:text", (ctx) => handleReply(ctx.api, cfg, ctx.message));
  bot.catch((err) => console.error(`[brynth] telegram bot of ${cfg.projectId}:`, err.error));
  return bot;
}
