import { and, eq } from "drizzle-orm";
import type { Api } from "grammy";
import type { CallbackQuery } from "grammy/types";
import { getDb } from "@/lib/db/client";
import { approvalDeliveries } from "@/lib/db/schema/approvals";
import { AppError } from "@/lib/errors";
import { decideByChannel } from "@/lib/approvals/decide-by-channel";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { appendEntry } from "@/lib/ledger/append-entry";
import { channelActor } from "@/lib/channels/channel-actor";
import { loadRequest } from "@/lib/approvals/decide-request";
import type { PersonVerdict } from "@/lib/approvals/person-verdict";
import type { BotConfig } from "@/lib/telegram/bot-config";
import { parseButtonData, promptMessage, type PromptMode } from "@/lib/telegram/callback-data";
import { findChatChannel } from "@/lib/telegram/find-chat-channel";
import { closeTelegramMessages } from "@/lib/telegram/jobs/close-request-job";

const promptModes: Record<"c" | "x" | "t", PromptMode> = { c: "comment", x: "context", t: "answer" };

const done: Record<string, string> = { approved: "Approved", denied: "Denied", modified: "Option chosen", answered: "Answered" };

/**
 * An inline button. Only a chat linked to an active channel of this project, to which the request was sent, may
 * press one; anything else is refused with an alert and changes nothing.
 */
export async function handleCallback(api: Api, cfg: BotConfig, q: CallbackQuery) {
  const answer = (text: string, alert = false) => api.answerCallbackQuery(q.id, { text, show_alert: alert });
  const parsed = parseButtonData(q.data ?? "");
  if (!parsed) return answer("This button is not from Brynth.", true);
  const db = await getDb();
  const channel = await findChatChannel(db, cfg.projectId, q.message?.chat.id);
  if (!channel || q.from.id !== Number(channel.telegramChatId)) return answer("This chat is not linked to this project.", true);
  const request = await loadRequest(db, cfg.projectId, parsed.requestId).catch(() => null);
  if (!request?.approvers.includes(channel.id)) return answer("This request was not sent to this chat.", true);

  if (parsed.verb === "c" || parsed.verb === "x" || parsed.verb === "t") {
    if (request.status !== "pending") return answer("Already decided.");
    const mode = promptModes[parsed.verb];
    await api.sendMessage(q.message!.chat.id, promptMessage(mode, request.id), {
      reply_markup: { force_reply: true, input_field_placeholder: mode === "answer" ? "Your answer" : "Your comment" },
    });
    return answer("Reply to the message below.");
  }
  const [delivery] = await db
    .select({ draft: approvalDeliveries.draftComment })
    .from(approvalDeliveries)
    .where(and(eq(approvalDeliveries.requestId, request.id), eq(approvalDeliveries.channelId, channel.id)));
  const comment = delivery?.draft ?? undefined;
  let verdict: PersonVerdict;
  if (parsed.verb === "a") verdict = { outcome: "approve", comment };
  else if (parsed.verb === "d") verdict = { outcome: "deny", comment };
  else {
    const option = request.options[parsed.option ?? -1];
    if (option === undefined) return answer("This option does not exist.", true);
    verdict = { outcome: "option", option, comment };
  }
  return decideAndClose(cfg, channel, request.id, verdict, answer);
}

/** Decides, answers the button press, and edits the request's messages right away (the close job is the backstop). */
export async function decideAndClose(
  cfg: BotConfig,
  channel: Parameters<typeof decideByChannel>[1]["channel"],
  requestId: string,
  verdict: PersonVerdict,
  answer: (text: string, alert?: boolean) => Promise<unknown>,
) {
  const db = await getDb();
  try {
    // The bot's handler is the decision's pipeline: its entry is the channel's, written with the decision.
    const row = await db.transaction(async (tx) => {
      const decided = await decideByChannel(tx, { channel, requestId, verdict });
      await appendEntry(tx, { actor: channelActor(channel), op: DECIDE_OP, subject: decided.id, input: verdict, output: { status: decided.status } });
      return decided;
    });
    await answer(done[row.status] ?? "Sent: needs more context");
  } catch (err) {
    // Every refusal a person can cause is told to them (a stale policy proposal is CONFLICT): rethrown, the press got
    // no answer at all and its button spun (found by helper-103). Only our own faults go to the log.
    if (!(err instanceof AppError) || err.code === "internal_error") throw err;
    await answer(err.message.slice(0, 200), true);
  }
  await closeTelegramMessages(db, cfg.projectId, requestId).catch((err) => console.error("[brynth] telegram edit failed", err));
}
