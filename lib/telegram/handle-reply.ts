import { and, eq } from "drizzle-orm";
import type { Api } from "grammy";
import type { Message } from "grammy/types";
import { getDb } from "@/lib/db/client";
import { unstorableText } from "@/lib/db/storable";
import { sliceWhole } from "@/lib/text/well-formed";
import { approvalDeliveries } from "@/lib/db/schema/approvals";
import { loadRequest } from "@/lib/approvals/decide-request";
import type { BotConfig } from "@/lib/telegram/bot-config";
import { parsePrompt } from "@/lib/telegram/callback-data";
import { findChatChannel } from "@/lib/telegram/find-chat-channel";
import { decideAndClose } from "@/lib/telegram/handle-callback";

/**
 * A reply to one of the bot's prompts (comment, missing context, answer). The prompt must be the bot's own message
 * and a prompt as a whole (parsePrompt); its marker names the request. A comment is kept for the next button;
 * context and answers decide at once.
 */
export async function handleReply(api: Api, cfg: BotConfig, msg: Message) {
  const reply = (text: string) => api.sendMessage(msg.chat.id, text);
  const db = await getDb();
  const channel = await findChatChannel(db, cfg.projectId, msg.chat.id);
  if (!channel) return reply("This chat is not linked to a Brynth project.");
  const prompt = msg.reply_to_message;
  const marker = prompt && String(prompt.from?.id) === cfg.botId ? parsePrompt(prompt.text) : null;
  if (!marker) return reply("Use the buttons on a request, or reply to one of my prompts.");
  // Cut whole: half an emoji would be stored as U+FFFD.
  const text = sliceWhole((msg.text ?? "").trim(), marker.mode === "answer" ? 4000 : 2000);
  if (!text) return reply("That reply is empty.");
  // Stored as typed (a draft comment, a decision): text PostgreSQL refuses would fail the handler without an answer.
  const unstorable = unstorableText(text);
  if (unstorable) return reply(`That reply cannot be stored: it holds ${unstorable}.`);
  const request = await loadRequest(db, cfg.projectId, marker.requestId).catch(() => null);
  if (!request?.approvers.includes(channel.id)) return reply("That request was not sent to this chat.");
  if (marker.mode === "comment") {
    if (request.status !== "pending") return reply("That request is already decided.");
    await db
      .update(approvalDeliveries)
      .set({ draftComment: text })
      .where(and(eq(approvalDeliveries.requestId, request.id), eq(approvalDeliveries.channelId, channel.id)));
    return reply("Comment saved: it goes with the button you press next on that request.");
  }
  const verdict = marker.mode === "answer" ? { outcome: "answer" as const, text } : { outcome: "needs_context" as const, comment: text };
  return decideAndClose(cfg, channel, request.id, verdict, (t) => reply(t));
}
