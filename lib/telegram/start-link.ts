import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getBotConfig } from "@/lib/telegram/bot-config";

/** `https://t.me/<bot>?start=<code>`: opening it and pressing Start sends `/start <code>` to the bot. */
export async function telegramStartLink(db: Executor, projectId: string, code: string): Promise<string> {
  const bot = await getBotConfig(db, projectId);
  if (!bot) {
    throw new AppError("service_unavailable", "Telegram is not set up for this project.", {
      fix: "The owner sets the Telegram bot token on the Channels screen; then add the channel again.",
    });
  }
  return `https://t.me/${bot.username}?start=${code}`;
}
