import type { Api } from "grammy";
import type { Message } from "grammy/types";
import { getDb } from "@/lib/db/client";
import { findByVerifyToken, verifiedEntry, verifyChannel } from "@/lib/channels/verify-channel";
import { appendEntry } from "@/lib/ledger/append-entry";
import type { BotConfig } from "@/lib/telegram/bot-config";

const UNIQUE_VIOLATION = "23505";

/** `/start <code>` from the t.me link of channel_add links this private chat to the channel, once. */
export async function handleStart(api: Api, cfg: BotConfig, msg: Message, code: string) {
  const reply = (text: string) => api.sendMessage(msg.chat.id, text);
  if (msg.chat.type !== "private") return reply("Link me in a private chat with the link from Brynth.");
  if (!code.trim()) return reply("Open the link Brynth gave when this channel was added (channel_add) to link this chat.");
  const db = await getDb();
  const channel = await findByVerifyToken(db, code.trim(), "telegram", cfg.projectId);
  if (!channel) return reply("This link is not valid any more. Ask for a new one (channel_add).");
  let linked: Awaited<ReturnType<typeof verifyChannel>>;
  try {
    // The bot's handler is the verification's pipeline: its entry is written with it.
    linked = await db.transaction(async (tx) => {
      const verified = await verifyChannel(tx, { channel, telegramChatId: String(msg.chat.id) });
      if (verified) await appendEntry(tx, verifiedEntry(verified));
      return verified;
    });
  } catch (err) {
    if (
      (err as { code?: string; cause?: { code?: string } }).code === UNIQUE_VIOLATION ||
      (err as { cause?: { code?: string } }).cause?.code === UNIQUE_VIOLATION
    ) {
      return reply("This chat is already linked to this project.");
    }
    throw err;
  }
  if (!linked) return reply("This link was used already.");
  return reply(
    linked.status === "active"
      ? `Linked as “${linked.label}”. Requests will arrive here with buttons to decide.`
      : `Linked as “${linked.label}”. The project owner must approve this chat on the Channels screen before requests arrive.`,
  );
}
