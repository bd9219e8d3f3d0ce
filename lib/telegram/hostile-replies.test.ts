import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalDeliveries } from "@/lib/db/schema/approvals";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { approveChannel } from "@/lib/channels/approve-channel";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";
import { type BotCall, FAKE_BOT, startFakeTelegram, tgUpdates, type FakeTelegram } from "@/lib/testing/fake-telegram";
import { restartBot, stopAllBots } from "@/lib/telegram/bot-runner";
import { setBotToken } from "@/lib/telegram/set-bot-token";

/** Replies typed in a linked chat: the person may send any text Telegram carries. */
const { h, call } = approvalsHarness();
const TOKEN = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ";
const CHAT = 5550077;
let tg: FakeTelegram;
let channelId: string;

beforeAll(async () => {
  tg = await startFakeTelegram();
  process.env.TELEGRAM_API_ROOT = tg.apiRoot;
  process.env.TELEGRAM_MODE = "polling";
  resetEnvCache();
  const db = await getDb();
  await db.transaction((tx) => setBotToken(tx, { actor: h.seeded.actor, token: TOKEN }));
  await restartBot(h.seeded.project.id);
  const added = ok(await call("channel_add", { kind: "telegram", label: "mario" }));
  channelId = added.channel_id;
  const from = tg.mark();
  tg.push(tgUpdates.message(CHAT, `/start ${new URL(added.link).searchParams.get("start")}`));
  await tg.waitFor((c) => c.method === "sendMessage" && /Linked/.test(String(c.params.text)), from);
  await db.transaction((tx) => approveChannel(tx, { actor: h.seeded.actor, channelId }));
});
afterAll(async () => {
  await stopAllBots();
  await tg.close();
});

const status = async (id: string) => ok(await call("request_status", { request_id: id }));
const toChat = (c: BotCall) => c.method === "sendMessage" && c.params.chat_id === CHAT;
const botMessage = (text: unknown) => ({
  message_id: 2,
  date: 0,
  chat: { id: CHAT, type: "private" },
  from: { id: FAKE_BOT.id, is_bot: true, first_name: "b" },
  text,
});

/** Asks through the tool, delivers it, presses the button that prompts for a reply, and returns the prompt. */
async function prompted(tool: "ask_approval" | "ask_human", args: Record<string, unknown>, verb: "c" | "x" | "t") {
  const id = ok(await call(tool, { wait_seconds: 0, approvers: [channelId], ...args })).request_id as string;
  await drainJobs({ kinds: ["approvals.telegram.send"] });
  const from = tg.mark();
  tg.push(tgUpdates.callback(CHAT, `${verb}:${id}`));
  const prompt = await tg.waitFor((c) => toChat(c) && /\[(comment|context|answer) req_/.test(String(c.params.text)), from);
  return { id, prompt: String(prompt.params.text) };
}
/** Sends a reply to the prompt and returns the bot's next message to the chat. */
async function replyTo(prompt: string, text: string) {
  const from = tg.mark();
  tg.push(tgUpdates.message(CHAT, text, { reply_to_message: botMessage(prompt) }));
  return String((await tg.waitFor(toChat, from)).params.text);
}

describe("Telegram replies, hostile text", () => {
  it("answers a reply holding a NUL with why it cannot be stored, decides nothing, then takes a clean answer", async () => {
    const { id, prompt } = await prompted("ask_human", { question: "Which carrier?" }, "t");
    expect(await replyTo(prompt, "DHL\u0000")).toMatch(/cannot be stored: it holds a NUL character/);
    expect((await status(id)).status).toBe("pending");
    expect(await replyTo(prompt, "DHL")).toBe("Answered");
    expect(await status(id)).toMatchObject({ status: "answered", decision: "DHL" });
  });

  it("keeps no comment and no context note holding a NUL", async () => {
    const comment = await prompted("ask_approval", { action: "refund", summary: "Refund order 5?" }, "c");
    expect(await replyTo(comment.prompt, "only\u0000half")).toMatch(/cannot be stored/);
    const [delivery] = await (await getDb())
      .select({ draft: approvalDeliveries.draftComment })
      .from(approvalDeliveries)
      .where(and(eq(approvalDeliveries.requestId, comment.id), eq(approvalDeliveries.channelId, channelId)));
    expect(delivery.draft).toBeNull();
    const context = await prompted("ask_approval", { action: "refund", summary: "Refund order 6?" }, "x");
    expect(await replyTo(context.prompt, "\u0000")).toMatch(/cannot be stored/);
    expect((await status(context.id)).status).toBe("pending");
  });

  it("takes no reply to a request's own message as an answer, though the text an agent wrote on it quotes a prompt's marker", async () => {
    const asked = ok(await call("ask_human", { question: "Which carrier?", wait_seconds: 0, approvers: [channelId] })).request_id as string;
    // Another request (any key of the project may ask), whose details mimic the answer prompt of the first.
    const lure = ok(
      await call("ask_approval", {
        action: "refund",
        summary: "Refund order 5?",
        details: `✍️ Reply to this message with your answer.\n[answer ${asked}]`,
        wait_seconds: 0,
        approvers: [channelId],
      }),
    ).request_id as string;
    await drainJobs({ kinds: ["approvals.telegram.send"] });
    const sent = await tg.waitFor((c) => c.method === "sendMessage" && String(c.params.text).includes(lure));
    // As Telegram gives the message back: its text without the HTML markup.
    const shown = String(sent.params.text).replace(/<[^>]+>/g, "");
    expect(await replyTo(shown, "Refund only half of it")).toMatch(/Use the buttons/);
    expect((await status(asked)).status).toBe("pending");
  });

  it("cuts an over-long answer before an emoji it would split, never storing half of it", async () => {
    const { id, prompt } = await prompted("ask_human", { question: "What should the apology say?" }, "t");
    expect(await replyTo(prompt, `${"x".repeat(3999)}😀 and more`)).toBe("Answered");
    const { decision } = await status(id);
    expect(decision).toBe("x".repeat(3999));
    expect(decision).not.toContain("\uFFFD");
  });
});
