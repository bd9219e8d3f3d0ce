import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalChannels, approvalRequests, approvalSettings } from "@/lib/db/schema/approvals";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { approveChannel } from "@/lib/channels/approve-channel";
import { approvalsHarness, ok, sleep } from "@/lib/approvals/__tests__/helpers";
import { seedProject } from "@/lib/testing/seed";
import { FAKE_BOT, startFakeTelegram, tgUpdates, type FakeTelegram } from "@/lib/testing/fake-telegram";
import { getBotConfig } from "@/lib/telegram/bot-config";
import { restartBot, stopAllBots } from "@/lib/telegram/bot-runner";
import { handleTelegramWebhook } from "@/lib/telegram/http/handle-telegram-webhook";
import { setBotToken } from "@/lib/telegram/set-bot-token";

const { h, call, decide, setPolicy } = approvalsHarness();
const TOKEN = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ";
const CHAT = 5550001;
const STRANGER = 9990001;
let tg: FakeTelegram;
let channelId: string;

beforeAll(async () => {
  tg = await startFakeTelegram();
  process.env.TELEGRAM_API_ROOT = tg.apiRoot;
  process.env.TELEGRAM_MODE = "polling";
  resetEnvCache();
});
afterAll(async () => {
  await stopAllBots();
  await tg.close();
});

const owner = () => h.seeded.actor;
const status = async (id: string) => ok(await call("request_status", { request_id: id }));
async function until<T>(fn: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(50);
  }
}
/** Asks, runs the Telegram send job, and returns the request id and the sendMessage call. */
async function askAndDeliver(args: Record<string, unknown>, tool = "ask_approval") {
  const id = ok(await call(tool, { wait_seconds: 0, ...args })).request_id as string;
  await drainJobs({ kinds: ["approvals.telegram.send"] });
  const sent = await tg.waitFor((c) => c.method === "sendMessage" && String(c.params.text).includes(id));
  return { id, sent };
}
/** Pushes an update and waits for the first later Bot API call that matches. */
async function pushAndWait(update: Record<string, unknown>, match: (c: { method: string; params: Record<string, unknown> }) => boolean) {
  const from = tg.mark();
  tg.push(update);
  return tg.waitFor(match, from);
}

describe("Telegram channel", () => {
  const sent = (chat: number, text: RegExp) => (c: { method: string; params: Record<string, unknown> }) =>
    c.method === "sendMessage" && c.params.chat_id === chat && text.test(String(c.params.text));
  const answered = (text: RegExp) => (c: { method: string; params: Record<string, unknown> }) =>
    c.method === "answerCallbackQuery" && text.test(String(c.params.text));
  const botMessage = (text: unknown) => ({
    message_id: 2,
    date: 0,
    chat: { id: CHAT, type: "private" },
    from: { id: FAKE_BOT.id, is_bot: true, first_name: "b" },
    text,
  });

  it("is off until the owner sets a bot token, which is checked with getMe", async () => {
    const off = await call("channel_add", { kind: "telegram", label: "mario" });
    expect(off).toMatchObject({ ok: false, code: "service_unavailable" });
    const db = await getDb();
    await expect(db.transaction((tx) => setBotToken(tx, { actor: owner(), token: "not-a-token" }))).rejects.toMatchObject({ code: "validation_error" });
    await expect(db.transaction((tx) => setBotToken(tx, { actor: owner(), token: "123456789:revoked000000000000000000000000000" }))).rejects.toBeInstanceOf(
      AppError,
    );
    const set = await db.transaction((tx) => setBotToken(tx, { actor: owner(), token: TOKEN }));
    expect(set.username).toBe(FAKE_BOT.username);
    const [stored] = await db.select().from(approvalSettings).where(eq(approvalSettings.projectId, h.seeded.project.id));
    expect(stored.telegramTokenEnc).toMatch(/^v2\./);
    expect(stored.telegramTokenEnc).not.toContain(TOKEN.split(":")[1]);
    // Found by helper-103: set on a second project too, both bots took the same updates (Telegram gives each to one
    // poller), so a press in one project's chat could land on the other. The same project may set it again.
    const other = await seedProject({ name: "Second bot owner" });
    const taken = await db.transaction((tx) => setBotToken(tx, { actor: other.actor, token: TOKEN })).catch((err) => err);
    expect(taken).toMatchObject({ code: "CONFLICT", details: [{ field: "token", message: expect.stringContaining("another project") }] });
    expect((await db.transaction((tx) => setBotToken(tx, { actor: owner(), token: TOKEN }))).username).toBe(FAKE_BOT.username);
    await restartBot(h.seeded.project.id);
  });

  it("links a chat with /start <code>, then becomes active once the owner approves it", async () => {
    const added = ok(await call("channel_add", { kind: "telegram", label: "mario" }));
    expect(added).toMatchObject({ kind: "telegram", status: "unverified" });
    expect(added.link).toMatch(new RegExp(`^https://t\\.me/${FAKE_BOT.username}\\?start=[A-Za-z0-9]+$`));
    channelId = added.channel_id;
    const code = new URL(added.link).searchParams.get("start")!;

    await pushAndWait(tgUpdates.message(STRANGER, "/start wrongcode"), sent(STRANGER, /not valid/));
    await pushAndWait(tgUpdates.message(CHAT, `/start ${code}`), sent(CHAT, /Linked as “mario”/));
    const db = await getDb();
    const [row] = await db.select().from(approvalChannels).where(eq(approvalChannels.id, channelId));
    expect(row).toMatchObject({ status: "awaiting_approval", telegramChatId: String(CHAT), verifyTokenHash: null });
    // The code works once.
    await pushAndWait(tgUpdates.message(STRANGER, `/start ${code}`), sent(STRANGER, /not valid/));

    expect(await call("ask_approval", { action: "x", summary: "x?", wait_seconds: 0, approvers: [channelId] })).toMatchObject({
      ok: false,
      code: "validation_error",
    });
    await db.transaction((tx) => approveChannel(tx, { actor: owner(), channelId }));
    const listed = ok(await call("channel_list")).channels.find((c: { id: string }) => c.id === channelId);
    expect(listed).toMatchObject({ status: "active", active: true });
  });

  it("sends requests with approve, deny and option buttons; a press decides and the message shows who decided", async () => {
    const { id, sent: msg } = await askAndDeliver({ action: "refund", summary: "Refund order 1042 (30 €)?", options: ["Refund 15 €"], approvers: [channelId] });
    const keyboard = (msg.params.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] }).inline_keyboard.flat();
    expect(keyboard.map((b) => b.callback_data)).toEqual([`a:${id}`, `d:${id}`, `o:${id}:0`, `c:${id}`, `x:${id}`]);
    // An option of an approval is a go-ahead with a change, whatever it says (an agent's option "Deny" approved).
    expect(keyboard.map((b) => b.text)).toContain("Approve with: Refund 15 €");

    const from = tg.mark();
    await pushAndWait(tgUpdates.callback(CHAT, `a:${id}`), answered(/^Approved$/));
    expect(await status(id)).toMatchObject({ status: "approved", decided_by: "channel:mario" });
    const edit = await tg.waitFor((c) => c.method === "editMessageText" && String(c.params.text).includes(id), from);
    expect(String(edit.params.text)).toMatch(/✅ Approved<\/b> by channel:mario/);
    expect(edit.params.reply_markup).toEqual({ inline_keyboard: [] });

    // A second press is told it was already decided.
    await pushAndWait(tgUpdates.callback(CHAT, `d:${id}`), answered(/already decided/));
    expect((await status(id)).status).toBe("approved");
  });

  // Found by helper-103: a refusal other than "already decided" (a policy proposal made stale by a newer version is
  // CONFLICT) was rethrown, so the press got no answer and its button spun.
  it("tells the person why a press was refused: approving a proposal another version has overtaken", async () => {
    const stale = ok(await call("policy_set", { policy: { rules: [{ id: "stale-tg", effect: "auto_approve" }] }, wait_seconds: 0 }));
    const newer = ok(await call("policy_set", { policy: { rules: [{ id: "newer-tg", action: "wire*", effect: "deny" }] }, wait_seconds: 0 }));
    await drainJobs({ kinds: ["approvals.telegram.send"] });
    await tg.waitFor((c) => c.method === "sendMessage" && String(c.params.text).includes(stale.request_id as string));
    await decide(newer.request_id as string, { outcome: "approve" });
    const refused = await pushAndWait(tgUpdates.callback(CHAT, `a:${stale.request_id}`), (c) => c.method === "answerCallbackQuery");
    expect(refused.params).toMatchObject({ show_alert: true, text: expect.stringMatching(/version/i) });
    expect((await status(stale.request_id as string)).status).toBe("pending");
    // Out of the later tests' way: the stale proposal rejected, the policy as they expect it.
    await decide(stale.request_id as string, { outcome: "deny" });
    await setPolicy([]);
  });

  it("refuses a callback from a chat that is not linked", async () => {
    const { id } = await askAndDeliver({ action: "refund", summary: "Refund order 7 (5 €)?", approvers: [channelId] });
    const refused = await pushAndWait(tgUpdates.callback(STRANGER, `a:${id}`), answered(/not linked/));
    expect(refused.params.show_alert).toBe(true);
    expect((await status(id)).status).toBe("pending");
  });

  it("takes a comment, then the option pressed, as a modified decision with the comment", async () => {
    const { id } = await askAndDeliver({ action: "refund", summary: "Refund order 8 (50 €)?", options: ["Store credit", "Half"], approvers: [channelId] });
    const prompt = await pushAndWait(tgUpdates.callback(CHAT, `c:${id}`), sent(CHAT, new RegExp(`\\[comment ${id}\\]`)));
    expect(prompt.params.reply_markup).toMatchObject({ force_reply: true });
    await pushAndWait(
      tgUpdates.message(CHAT, "Only if they keep the order.", { reply_to_message: botMessage(prompt.params.text) }),
      sent(CHAT, /Comment saved/),
    );
    tg.push(tgUpdates.callback(CHAT, `o:${id}:1`));
    await until(async () => (await status(id)).status === "modified");
    expect(await status(id)).toMatchObject({ status: "modified", decision: "Half", comment: "Only if they keep the order." });
  });

  it("asks for more context through a reply, and answers a question in text", async () => {
    const { id } = await askAndDeliver({ action: "delete", summary: "Delete the old invoices?", approvers: [channelId] });
    const prompt = await pushAndWait(tgUpdates.callback(CHAT, `x:${id}`), sent(CHAT, new RegExp(`\\[context ${id}\\]`)));
    tg.push(tgUpdates.message(CHAT, "Which years?", { reply_to_message: botMessage(prompt.params.text) }));
    await until(async () => (await status(id)).status === "needs_context");
    expect((await status(id)).comment).toBe("Which years?");

    const q = await askAndDeliver({ question: "What should the apology say?", approvers: [channelId] }, "ask_human");
    const qKeyboard = (q.sent.params.reply_markup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard.flat();
    expect(qKeyboard.map((b) => b.callback_data)).toEqual([`t:${q.id}`, `x:${q.id}`]);
    const ask = await pushAndWait(tgUpdates.callback(CHAT, `t:${q.id}`), sent(CHAT, new RegExp(`\\[answer ${q.id}\\]`)));
    // A reply to a message that is not the bot's own prompt is not taken as an answer.
    const forged = { ...botMessage(ask.params.text), from: { id: 42, is_bot: false, first_name: "x" } };
    await pushAndWait(tgUpdates.message(CHAT, "forged", { reply_to_message: forged }), sent(CHAT, /Use the buttons/));
    tg.push(tgUpdates.message(CHAT, "Sorry for the delay.", { reply_to_message: botMessage(ask.params.text) }));
    await until(async () => (await status(q.id)).status === "answered");
    expect((await status(q.id)).decision).toBe("Sorry for the delay.");
  });

  it("checks the secret token header in webhook mode, before a bot not running here asks Telegram anything", async () => {
    const cfg = (await getBotConfig(await getDb(), h.seeded.project.id))!;
    const { id } = await askAndDeliver({ action: "refund", summary: "Refund order 9?", approvers: [channelId] });
    // No bot running in this process: a stranger's POSTs must not make one (its getMe is a Bot API call).
    await stopAllBots();
    const before = tg.mark();
    const post = (secret: string | null) =>
      handleTelegramWebhook(
        new Request(`http://localhost/telegram/${h.seeded.project.id}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}) },
          body: JSON.stringify({ update_id: tg.nextUpdateId(), ...tgUpdates.callback(CHAT, `d:${id}`) }),
        }),
      );
    expect((await post(null)).status).toBe(401);
    expect((await post("wrong-secret")).status).toBe(401);
    expect(tg.calls.slice(before).map((c) => c.method)).toEqual([]);
    expect((await status(id)).status).toBe("pending");
    expect((await post(cfg.webhookSecret)).status).toBe(200);
    expect(await status(id)).toMatchObject({ status: "denied", decided_by: "channel:mario" });
    // Polling again, for the tests after this one.
    await restartBot(h.seeded.project.id);
  });

  it("sends a notice without buttons when the policy auto-approves with notify", async () => {
    await setPolicy([{ id: "small-refunds", action: "refund", amount_lte: 20, effect: "auto_approve_notify", approvers: [channelId] }]);
    const r = ok(await call("ask_approval", { action: "refund", summary: "Refund order 11 (5 €)?", amount: 5, wait_seconds: 0 }));
    expect(r).toMatchObject({ status: "approved", decided_by: "policy:small-refunds" });
    await drainJobs({ kinds: ["approvals.telegram.send"] });
    const notice = await tg.waitFor((c) => c.method === "sendMessage" && String(c.params.text).includes("Refund order 11"));
    expect(notice.params.reply_markup).toBeUndefined();
    expect(String(notice.params.text)).toMatch(/Approved at once by policy:small-refunds/);
    await setPolicy([]);
  });

  it("stops the buttons of a removed channel and moves its pending requests to the owner", async () => {
    const { id } = await askAndDeliver({ action: "refund", summary: "Refund order 10?", approvers: [channelId] });
    const removed = ok(await call("channel_remove", { channel_id: channelId }));
    // This one and order 7's, still pending from the stranger's test.
    expect(removed).toMatchObject({ status: "removed", moved_requests: 2 });
    const [row] = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.id, id));
    const ownerId = ok(await call("channel_list")).channels[0].id;
    expect(row.approvers).toEqual([ownerId]);
    const refused = await pushAndWait(tgUpdates.callback(CHAT, `a:${id}`), answered(/not linked/));
    expect(refused.params.show_alert).toBe(true);
    expect((await status(id)).status).toBe("pending");
    expect(await call("channel_remove", { channel_id: ownerId })).toMatchObject({ ok: false, code: "forbidden" });
  });
});
