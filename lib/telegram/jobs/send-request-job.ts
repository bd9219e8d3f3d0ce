import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { approvalDeliveries } from "@/lib/db/schema/approvals";
import { defineJobKind, PermanentJobError } from "@/lib/jobs/define-job-kind";
import { getBotConfig } from "@/lib/telegram/bot-config";
import { botApi } from "@/lib/telegram/telegram-api";
import { requestKeyboard, requestText } from "@/lib/telegram/format-request";
import { loadDelivery } from "@/lib/telegram/jobs/delivery-context";
import { closeTelegramMessages } from "@/lib/telegram/jobs/close-request-job";

/** Sends one request to one linked chat, with its buttons (or as a notice without them). */
export const telegramSendJob = defineJobKind({
  kind: "approvals.telegram.send",
  payload: z.object({ deliveryId: z.number().int() }),
  maxAttempts: 6,
  retryBaseMs: 5_000,
  handler: async ({ deliveryId }) => {
    const db = await getDb();
    const found = await loadDelivery(db, deliveryId);
    if (!found || found.delivery.sentAt) return;
    const { delivery, request, channel } = found;
    // Decided before it could be sent, or the channel went away: nothing left to ask.
    if (channel.status !== "active" || !channel.telegramChatId) return;
    if (!delivery.notice && request.status !== "pending") return;
    const bot = await getBotConfig(db, request.projectId);
    if (!bot) throw new PermanentJobError("Telegram is not set up for this project");
    const sent = await botApi(bot.token).sendMessage(channel.telegramChatId, requestText(request, { notice: delivery.notice }), {
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      reply_markup: delivery.notice ? undefined : { inline_keyboard: requestKeyboard(request) },
    });
    await db
      .update(approvalDeliveries)
      .set({ sentAt: new Date(), telegramMessageId: sent.message_id, telegramChatId: channel.telegramChatId, attempts: delivery.attempts + 1 })
      .where(eq(approvalDeliveries.id, delivery.id));
    // A decision that landed while this was sending found no message to close: close it now.
    if (!delivery.notice) await closeTelegramMessages(db, request.projectId, request.id);
  },
  // The request page shows each delivery: failed for good, it said "sending" forever (found by helper-104).
  onFailure: async ({ deliveryId }, ctx) => {
    await ctx.db
      .update(approvalDeliveries)
      .set({ lastError: ctx.error.slice(0, 500) })
      .where(eq(approvalDeliveries.id, deliveryId));
  },
});
