import { safeEqual } from "@/lib/crypto/hash";
import type { ApiRequest } from "@/lib/http/api-request";
import { readJson } from "@/lib/http/read-body";
import { botConfigFor, botFor } from "@/lib/telegram/bot-runner";
import { TELEGRAM_HOOK_PREFIX } from "@/lib/telegram/bot-mode";

const MAX_UPDATE_BYTES = 1024 * 1024;
const status = (code: number) => new Response(null, { status: code });

/**
 * `POST /telegram/<project id>`: Telegram's webhook. The secret token header set with setWebhook must match
 * (constant-time) before the body is even parsed, and before a bot not yet running here is made (which asks the
 * Bot API getMe): a stranger's POST costs no call to Telegram. The update then goes to the project's bot.
 */
export async function handleTelegramWebhook(req: ApiRequest): Promise<Response> {
  if (req.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  const projectId = new URL(req.url).pathname.slice(TELEGRAM_HOOK_PREFIX.length);
  if (!/^[A-Za-z0-9_]{1,64}$/.test(projectId)) return status(404);
  const config = await botConfigFor(projectId);
  if (!config) return status(404);
  const secret = req.headers.get("x-telegram-bot-api-secret-token") ?? "";
  if (!safeEqual(secret, config.webhookSecret)) return status(401);
  const running = await botFor(projectId);
  if (!running) return status(404);
  let update: unknown;
  try {
    update = await readJson(req, MAX_UPDATE_BYTES);
  } catch {
    return status(400);
  }
  if (!update || typeof update !== "object" || typeof (update as { update_id?: unknown }).update_id !== "number") return status(400);
  try {
    await running.bot.handleUpdate(update as Parameters<typeof running.bot.handleUpdate>[0]);
  } catch (err) {
    // Telegram retries non-2xx answers; a handler bug would loop forever, so it is logged and acknowledged.
    console.error("[brynth] telegram update failed", err);
  }
  return status(200);
}
