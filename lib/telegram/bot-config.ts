import { eq, isNotNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { decryptSecret } from "@/lib/crypto/secret-box";

export interface BotConfig {
  projectId: string;
  token: string;
  botId: string;
  username: string;
  webhookSecret: string;
}

const toConfig = (row: typeof approvalSettings.$inferSelect): BotConfig | null =>
  row.telegramTokenEnc && row.telegramUsername && row.telegramBotId && row.telegramWebhookSecretEnc
    ? {
        projectId: row.projectId,
        token: decryptSecret(row.telegramTokenEnc),
        botId: row.telegramBotId,
        username: row.telegramUsername,
        webhookSecret: decryptSecret(row.telegramWebhookSecretEnc),
      }
    : null;

/** The project's Telegram bot, or null: Telegram is off until the owner sets a token. */
export async function getBotConfig(db: Executor, projectId: string): Promise<BotConfig | null> {
  const [row] = await db.select().from(approvalSettings).where(eq(approvalSettings.projectId, projectId));
  return row ? toConfig(row) : null;
}

export async function allBotConfigs(db: Executor): Promise<BotConfig[]> {
  const rows = await db.select().from(approvalSettings).where(isNotNull(approvalSettings.telegramTokenEnc));
  return rows.map(toConfig).filter((c): c is BotConfig => c !== null);
}
