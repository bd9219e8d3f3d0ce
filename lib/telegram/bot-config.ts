import { eq, isNotNull } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { decryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";

export interface BotConfig {
  projectId: string;
  token: string;
  botId: string;
  username: string;
  webhookSecret: string;
}

function open(sealed: string, column: AnyPgColumn, projectId: string): string {
  try {
    return decryptSecret(sealed, secretSlot(column, projectId));
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    throw new AppError("service_unavailable", `The project's Telegram bot cannot be used: ${err.message}`, {
      fix: "Set the bot token again on the Channels screen.",
    });
  }
}

const toConfig = (row: typeof approvalSettings.$inferSelect): BotConfig | null =>
  row.telegramTokenEnc && row.telegramUsername && row.telegramBotId && row.telegramWebhookSecretEnc
    ? {
        projectId: row.projectId,
        token: open(row.telegramTokenEnc, approvalSettings.telegramTokenEnc, row.projectId),
        botId: row.telegramBotId,
        username: row.telegramUsername,
        webhookSecret: open(row.telegramWebhookSecretEnc, approvalSettings.telegramWebhookSecretEnc, row.projectId),
      }
    : null;

/** The project's Telegram bot, or null: Telegram is off until the owner sets a token. */
export async function getBotConfig(db: Executor, projectId: string): Promise<BotConfig | null> {
  const [row] = await db.select().from(approvalSettings).where(eq(approvalSettings.projectId, projectId));
  return row ? toConfig(row) : null;
}

/** Every project's bot that can run; one whose stored token cannot be opened is left out (and said so in the log). */
export async function allBotConfigs(db: Executor): Promise<BotConfig[]> {
  const rows = await db.select().from(approvalSettings).where(isNotNull(approvalSettings.telegramTokenEnc));
  return rows.flatMap((row) => {
    try {
      return toConfig(row) ?? [];
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      console.error(`[brynth] telegram: project ${row.projectId}: ${err.message}`);
      return [];
    }
  });
}
