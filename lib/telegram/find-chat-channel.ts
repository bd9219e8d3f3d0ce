import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels } from "@/lib/db/schema/approvals";

/** The active Telegram channel of this project linked to a chat, or null: nothing else may act through the bot. */
export async function findChatChannel(db: Executor, projectId: string, chatId: number | string | undefined) {
  if (chatId === undefined) return null;
  const [row] = await db
    .select()
    .from(approvalChannels)
    .where(
      and(
        eq(approvalChannels.projectId, projectId),
        eq(approvalChannels.kind, "telegram"),
        eq(approvalChannels.status, "active"),
        eq(approvalChannels.telegramChatId, String(chatId)),
      ),
    );
  return row ?? null;
}
