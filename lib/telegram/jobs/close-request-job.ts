import { and, eq, isNull } from "drizzle-orm";
import { GrammyError } from "grammy";
import { z } from "zod";
import { getDb, type Executor } from "@/lib/db/client";
import { approvalDeliveries, approvalRequests } from "@/lib/db/schema/approvals";
import { defineJobKind } from "@/lib/jobs/define-job-kind";
import { getBotConfig } from "@/lib/telegram/bot-config";
import { botApi } from "@/lib/telegram/telegram-api";
import { closedText } from "@/lib/telegram/format-request";
import { openTelegramMessages } from "@/lib/telegram/jobs/delivery-context";

/**
 * After a decision, every Telegram message of the request is edited to show the outcome and who decided, and
 * loses its buttons. Each message is claimed (closed_at) before it is edited, so two runners never edit it twice.
 */
export async function closeTelegramMessages(db: Executor, projectId: string, requestId: string) {
  const [request] = await db
    .select()
    .from(approvalRequests)
    .where(and(eq(approvalRequests.projectId, projectId), eq(approvalRequests.id, requestId)));
  if (!request || request.status === "pending") return;
  const open = await openTelegramMessages(db, requestId);
  if (open.length === 0) return;
  const bot = await getBotConfig(db, projectId);
  if (!bot) return;
  const api = botApi(bot.token);
  for (const d of open) {
    const [claimed] = await db
      .update(approvalDeliveries)
      .set({ closedAt: new Date() })
      .where(and(eq(approvalDeliveries.id, d.id), isNull(approvalDeliveries.closedAt)))
      .returning();
    if (!claimed) continue;
    try {
      await api.editMessageText(d.telegramChatId!, d.telegramMessageId!, closedText(request), {
        parse_mode: "HTML",
        link_preview_options: { is_disabled: true },
        reply_markup: { inline_keyboard: [] },
      });
    } catch (err) {
      // "message is not modified" or a deleted message: nothing left to do. Others: release for the retry.
      if (err instanceof GrammyError && err.error_code === 400) continue;
      await db.update(approvalDeliveries).set({ closedAt: null }).where(eq(approvalDeliveries.id, d.id));
      throw err;
    }
  }
}

export const telegramCloseJob = defineJobKind({
  kind: "approvals.telegram.close",
  payload: z.object({ projectId: z.string(), requestId: z.string() }),
  maxAttempts: 6,
  retryBaseMs: 5_000,
  handler: async ({ projectId, requestId }) => closeTelegramMessages(await getDb(), projectId, requestId),
});
