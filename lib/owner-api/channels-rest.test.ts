import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CHANNELS_PER_PROJECT, MAX_UNAPPROVED_CHANNELS } from "@/lib/channels/add-channel";
import { confirmEmailChannel } from "@/lib/channels/verify-link";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import { asKey, namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { stopAllBots } from "@/lib/telegram/bot-runner";
import { FAKE_BOT, type FakeTelegram, startFakeTelegram } from "@/lib/testing/fake-telegram";
import { openBody } from "@/lib/mail/outbound/sealed-body";
import { toolOpOf } from "@/lib/tools/registry";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { seedProject } from "@/lib/testing/seed";

/**
 * The Channels screen's actions over owner REST (HTTP Basic), with the verification mail read back from the outbound
 * queue and confirmed through the verify page's own function, and the Telegram bot against a local Bot API server.
 */
let c: Awaited<ReturnType<typeof ownerClient>>;
let tg: FakeTelegram;
const BOT_TOKEN = `${FAKE_BOT.id}:AAtest-token-of-thirty-plus-characters`;

beforeAll(async () => {
  delete process.env.SMTP_RELAY_URL;
  tg = await startFakeTelegram();
  process.env.TELEGRAM_API_ROOT = tg.apiRoot;
  process.env.TELEGRAM_MODE = "polling";
  resetEnvCache();
  c = await ownerClient("Channels REST");
});
afterAll(async () => {
  await stopAllBots();
  await c.server.close();
  await tg.close();
});

/** The verification mail sent to `address`, and the token its link carries. */
async function verificationMail(address: string, projectId = c.seeded.project.id) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.subject, "Confirm this address for Brynth approvals")));
  const row = rows.find((m) => m.to.includes(address));
  if (!row?.sealedBodyEnc) throw new Error(`no verification mail to ${address}`);
  // The body as sent: the stored copy withholds the link from agents (link-secrecy.test.ts).
  const mail = openBody(row.id, row.sealedBodyEnc);
  const token = /\/verify\/([A-Za-z0-9]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error("the mail carries no link");
  return { text: mail.text, html: mail.html ?? "", token };
}
const confirm = async (token: string) => (await getDb()).transaction((tx) => confirmEmailChannel(tx, token));
const channelIds = async () => (await c.call("GET", "/owner/channels")).body.channels.map((ch: { id: string }) => ch.id);

describe("owner REST: channels", () => {
  it("lists the owner channel first, with addresses unmasked", async () => {
    const res = await c.call("GET", "/owner/channels");
    expect(res.status).toBe(200);
    expect(res.body.channels[0]).toMatchObject({ kind: "owner", status: "active" });
  });

  it("adds an email channel the owner's way: the mail says confirming activates it, and confirming does", async () => {
    const address = "reviewer@brynth.localhost";
    const added = await c.call("POST", "/owner/channels", { kind: "email", address, label: "reviewer" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ kind: "email", label: "reviewer", status: "unverified" });
    expect(added.body.hint).toMatch(/it becomes active/);
    expect(added.body.hint).not.toMatch(/approv/);
    expect((await c.entry(toolOpOf("channel_add")))?.subject).toBe(added.body.channel_id);

    const mail = await verificationMail(address);
    expect(mail.text).toMatch(/Once you confirm, the channel is active/);
    expect(mail.text).not.toMatch(/owner (still )?approves/);
    expect(mail.html).toContain(`/verify/${mail.token}`);
    expect((await confirm(mail.token))?.status).toBe("active");
    const listed = (await c.call("GET", "/owner/channels")).body.channels.find((ch: { id: string }) => ch.id === added.body.channel_id);
    expect(listed).toMatchObject({ status: "active", active: true, address });
  });

  it("approves a channel an agent added, whose mail said so, once verified; 409 before and after, 404 when unknown", async () => {
    const address = "agent-pick@brynth.localhost";
    const byAgent = await fetch(`${c.server.url}/api/v1/channels`, {
      method: "POST",
      headers: { authorization: `Bearer ${c.seeded.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "email", address, label: "agent-pick" }),
    });
    const { channel_id: id, hint } = await byAgent.json();
    expect(hint).toMatch(/waits for the owner's approval/);
    expect((await c.call("POST", `/owner/channels/${id}/approve`)).status).toBe(409);

    const mail = await verificationMail(address);
    expect(mail.text).toMatch(/the project owner still approves it/);
    expect((await confirm(mail.token))?.status).toBe("awaiting_approval");
    const approved = await c.call("POST", `/owner/channels/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ id, label: "agent-pick" });
    expect((await c.entry("channel.approve"))?.subject).toBe(id);
    expect((await c.call("POST", `/owner/channels/${id}/approve`)).status).toBe(409);
    expect((await c.call("POST", "/owner/channels/chn_unknown123/approve")).status).toBe(404);

    const removed = await c.call("DELETE", `/owner/channels/${id}`);
    expect(removed.body).toMatchObject({ channel_id: id, status: "removed" });
    expect((await c.entry(toolOpOf("channel_remove")))?.subject).toBe(id);
    expect((await c.call("DELETE", `/owner/channels/${id}`)).status).toBe(404);
  });

  it("refuses bad input by field, a duplicate with 409, the owner channel with 403, and outside mail with no relay with 503, writing nothing", async () => {
    const noAddress = await c.call("POST", "/owner/channels", { kind: "email" });
    expect(noAddress.status).toBe(400);
    expect(namesFields(noAddress.body, ["address"])).toBe(true);
    const badFields = await c.call("POST", "/owner/channels", { kind: "pigeon", address: "not-mail", label: "x".repeat(41) });
    expect(badFields.status).toBe(400);
    expect(namesFields(badFields.body, ["kind", "address", "label"])).toBe(true);
    const badId = await c.call("DELETE", "/owner/channels/12345");
    expect(badId.status).toBe(400);
    expect(namesFields(badId.body, ["channel_id"])).toBe(true);

    await c.call("POST", "/owner/channels", { kind: "email", address: "twice@brynth.localhost" });
    const dup = await c.call("POST", "/owner/channels", { kind: "email", address: "TWICE@brynth.localhost" });
    expect(dup.status).toBe(409);

    const owner = (await c.call("GET", "/owner/channels")).body.channels[0];
    expect((await c.call("DELETE", `/owner/channels/${owner.id}`)).status).toBe(403);

    const before = await channelIds();
    const outside = await c.call("POST", "/owner/channels", { kind: "email", address: "someone@example.net" });
    expect(outside.status).toBe(503);
    expect(outside.body.error.code).toBe("service_unavailable");
    expect(outside.body.error.fix).toMatch(/relay/);
    expect(await channelIds()).toEqual(before);
  });

  it("stops at MAX_CHANNELS_PER_PROJECT channels, the owner's included, for an agent's channel_add as for the owner, writing nothing past it", async () => {
    const { project, secret } = await seedProject({ name: "Channels cap" });
    const asOwner = { "x-brynth-project": project.id };
    for (let i = 1; i < MAX_CHANNELS_PER_PROJECT; i++) {
      expect((await c.call("POST", "/owner/channels", { kind: "email", address: `cap${i}@brynth.localhost` }, asOwner)).status).toBe(201);
    }
    const before = await lastLedgerEntry(project.id, toolOpOf("channel_add"));
    const owner = await c.call("POST", "/owner/channels", { kind: "email", address: "one-more@brynth.localhost" }, asOwner);
    expect(owner.status).toBe(429);
    expect(owner.body.error.code).toBe("QUOTA_EXCEEDED");
    const agent = await c.call("POST", "/channels", { kind: "email", address: "agents-one-more@brynth.localhost" }, asKey(secret));
    expect(agent.status).toBe(429);
    expect((await lastLedgerEntry(project.id, toolOpOf("channel_add")))?.id).toBe(before?.id);
    const listed = (await c.call("GET", "/owner/channels", undefined, asOwner)).body.channels;
    expect(listed).toHaveLength(MAX_CHANNELS_PER_PROJECT);
    // A removed channel frees its place.
    expect((await c.call("DELETE", `/owner/channels/${listed[1].id}`, undefined, asOwner)).status).toBe(200);
    expect((await c.call("POST", "/owner/channels", { kind: "email", address: "one-more@brynth.localhost" }, asOwner)).status).toBe(201);
  });

  it("holds agents to MAX_UNAPPROVED_CHANNELS channels the owner has not approved; the owner is not held to it, and an approval makes room", async () => {
    const { project, secret } = await seedProject({ name: "Unapproved channels" });
    const asOwner = { "x-brynth-project": project.id };
    const agentAdd = (address: string) => c.call("POST", "/channels", { kind: "email", address }, asKey(secret));
    for (let i = 0; i < MAX_UNAPPROVED_CHANNELS; i++) expect((await agentAdd(`pending${i}@brynth.localhost`)).status).toBe(200);
    const before = await lastLedgerEntry(project.id, toolOpOf("channel_add"));
    const refused = await agentAdd("one-more@brynth.localhost");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("QUOTA_EXCEEDED");
    expect(refused.body.error.message).toContain(String(MAX_UNAPPROVED_CHANNELS));
    expect((await lastLedgerEntry(project.id, toolOpOf("channel_add")))?.id).toBe(before?.id);
    expect((await c.call("POST", "/owner/channels", { kind: "email", address: "owners-own@brynth.localhost" }, asOwner)).status).toBe(201);

    // Verified, the channel still waits for the owner and still counts; approved, it no longer does.
    await confirm((await verificationMail("pending0@brynth.localhost", project.id)).token);
    expect((await agentAdd("one-more@brynth.localhost")).status).toBe(429);
    const listed = (await c.call("GET", "/owner/channels", undefined, asOwner)).body.channels;
    const verified = listed.find((ch: { address: string | null }) => ch.address === "pending0@brynth.localhost");
    expect(verified.status).toBe("awaiting_approval");
    expect((await c.call("POST", `/owner/channels/${verified.id}/approve`, undefined, asOwner)).status).toBe(200);
    expect((await agentAdd("one-more@brynth.localhost")).status).toBe(200);
  });

  it("sets, shows and removes the Telegram bot token (never ledgered), then adds a Telegram channel", async () => {
    const none = await c.call("POST", "/owner/channels", { kind: "telegram", label: "phone" });
    // No bot yet: refused before anything is written, saying what to set.
    expect(none.status).toBe(503);
    expect(none.body.error.code).toBe("service_unavailable");

    const bad = await c.call("PUT", "/owner/telegram", { token: "nope" });
    expect(bad.status).toBe(400);
    expect(namesFields(bad.body, ["token"])).toBe(true);
    const set = await c.call("PUT", "/owner/telegram", { token: BOT_TOKEN });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ username: FAKE_BOT.username, bot_id: String(FAKE_BOT.id) });
    const entry = await c.entry("telegram.configure");
    expect(entry?.subject).toBe(`telegram:@${FAKE_BOT.username}`);
    expect(JSON.stringify(entry)).not.toContain(BOT_TOKEN);
    expect((await c.call("GET", "/owner/telegram")).body).toMatchObject({ configured: true, username: FAKE_BOT.username });

    const phone = await c.call("POST", "/owner/channels", { kind: "telegram", label: "phone" });
    expect(phone.status).toBe(201);
    expect(phone.body.link).toContain(`t.me/${FAKE_BOT.username}?start=`);

    expect((await c.call("DELETE", "/owner/telegram")).body).toEqual({ removed: true });
    expect((await c.entry("telegram.remove"))?.subject).toBe("telegram");
    expect((await c.call("GET", "/owner/telegram")).body.configured).toBe(false);
  });

  it("reveals (with a POST: no GET changes anything) and rotates the callback secret, each ledgered", async () => {
    // A GET made the secret and wrote an entry at each read.
    expect((await c.call("GET", "/owner/callback-secret")).status).toBe(404);
    expect(await c.entry("callback_secret.reveal")).toBeUndefined();
    const first = await c.call("POST", "/owner/callback-secret/reveal");
    expect(first.body.secret.length).toBeGreaterThan(20);
    expect((await c.entry("callback_secret.reveal"))?.subject).toBe("callback-secret");
    const rotated = await c.call("POST", "/owner/callback-secret/rotate");
    expect(rotated.body.secret).not.toBe(first.body.secret);
    expect((await c.call("POST", "/owner/callback-secret/reveal")).body.secret).toBe(rotated.body.secret);
    expect(await c.entry("callback_secret.rotate")).toBeDefined();
  });
});
