import type { Bot } from "grammy";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { allBotConfigs, getBotConfig, type BotConfig } from "@/lib/telegram/bot-config";
import { ALLOWED_UPDATES, createBot } from "@/lib/telegram/create-bot";
import { botMode, webhookUrl } from "@/lib/telegram/bot-mode";
import { takePollLock } from "@/lib/telegram/poll-lock";

interface Running {
  bot: Bot;
  config: BotConfig;
  stop: () => Promise<void>;
}
/** One bot per configured project and process, on globalThis (Next bundles routes apart from server.ts). */
const g = globalThis as { __brynthBots?: Map<string, Running> };
const bots = () => (g.__brynthBots ??= new Map());

const LOCK_RETRY_MS = 15_000;

async function recordError(projectId: string, error: string | null) {
  const db = await getDb();
  await db
    .update(approvalSettings)
    .set({ telegramError: error?.slice(0, 500) ?? null })
    .where(eq(approvalSettings.projectId, projectId));
}

/** Polls (one instance at a time) or registers the webhook, depending on the mode. */
async function run(config: BotConfig): Promise<Running> {
  const bot = createBot(config);
  if (botMode() === "webhook") {
    await bot.init();
    await bot.api.setWebhook(webhookUrl(config.projectId), { secret_token: config.webhookSecret, allowed_updates: [...ALLOWED_UPDATES] });
    await recordError(config.projectId, null);
    return { bot, config, stop: async () => {} };
  }
  let stopped = false;
  let release: (() => Promise<void>) | null = null;
  let retry: NodeJS.Timeout | undefined;
  const attempt = async () => {
    if (stopped) return;
    release = await takePollLock(config.projectId);
    if (!release) {
      retry = setTimeout(attempt, LOCK_RETRY_MS);
      retry.unref();
      return;
    }
    bot
      .start({ allowed_updates: [...ALLOWED_UPDATES], timeout: 25, onStart: () => void recordError(config.projectId, null) })
      .catch((err: Error) => {
        console.error(`[brynth] telegram polling for ${config.projectId} stopped:`, err.message);
        void recordError(config.projectId, err.message);
      })
      .finally(() => release?.());
  };
  await attempt();
  return {
    bot,
    config,
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      if (bot.isRunning()) await bot.stop().catch(() => {});
      await release?.();
    },
  };
}

export async function stopBot(projectId: string) {
  const running = bots().get(projectId);
  bots().delete(projectId);
  await running?.stop();
}

/** (Re)starts a project's bot from its stored settings, or stops it when the token was removed. */
export async function restartBot(projectId: string) {
  await stopBot(projectId);
  try {
    // Inside the try: a stored token that cannot be opened is shown on the Channels screen like any bot error.
    const config = await getBotConfig(await getDb(), projectId);
    if (!config) return;
    bots().set(projectId, await run(config));
  } catch (err) {
    await recordError(projectId, (err as Error).message);
  }
}

export async function startAllBots() {
  for (const config of await allBotConfigs(await getDb())) await restartBot(config.projectId);
}

export async function stopAllBots() {
  for (const projectId of [...bots().keys()]) await stopBot(projectId);
}

/** A project's bot settings: the running bot's, else the stored ones; null when it has no bot. */
export async function botConfigFor(projectId: string): Promise<BotConfig | null> {
  return bots().get(projectId)?.config ?? getBotConfig(await getDb(), projectId);
}

/** The running bot of a project (webhook mode hands updates to it), created on demand. */
export async function botFor(projectId: string): Promise<Running | null> {
  const running = bots().get(projectId);
  if (running) return running;
  const config = await getBotConfig(await getDb(), projectId);
  if (!config) return null;
  const bot = createBot(config);
  await bot.init();
  const r = { bot, config, stop: async () => {} };
  bots().set(projectId, r);
  return r;
}
