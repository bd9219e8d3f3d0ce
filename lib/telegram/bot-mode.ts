import { env } from "@/lib/env";

/** Webhook when forced, or in `auto` when the public URL is https (Telegram only calls https); else long polling. */
export function botMode(): "polling" | "webhook" {
  const e = env();
  if (e.TELEGRAM_MODE !== "auto") return e.TELEGRAM_MODE;
  return e.publicUrl.startsWith("https://") ? "webhook" : "polling";
}

export const TELEGRAM_HOOK_PREFIX = "/telegram/";
export const webhookUrl = (projectId: string) => `${env().publicUrl}${TELEGRAM_HOOK_PREFIX}${projectId}`;
