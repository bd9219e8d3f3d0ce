import { and, eq, sql } from "drizzle-orm";
import { generateKeyPairSync } from "node:crypto";
import { dkimSign, dkimVerify } from "mailauth";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailboxes, mailListEntries, mailMessages, type Mailbox } from "@/lib/db/schema/mail";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { OWNER_EMAIL, OWNER_PASSWORD } from "@/lib/testing/seed";
import { deleteListEntryTool } from "@/lib/tools/mailboxes/delete-list-entry";
import { replyToMessage } from "@/lib/tools/mailboxes/reply-to-message";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call, projectWithKey, refusal } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";
import { dkimTxt, fakeResolver, sendTo, startSink, type SinkMessage } from "@/lib/mail/__tests__/helpers";
import { dsnReport, sendReport } from "@/lib/mail/__tests__/delivery-reports";

/**
 * The mailbox send tools against real SMTP: a second smtp-server as the relay sink (envelopes and raw bytes,
 * DKIM-verified with mailauth), which can refuse a recipient, answer 451 or 550 at DATA, or drop the connection after
 * the body; the built-in listener for replies and DSNs; and the owner's resolution of send_unknown over owner REST.
 */
let sink: Awaited<ReturnType<typeof startSink>>;
let answer: ((m: SinkMessage) => { code: number; message: string } | "drop" | null) | null = null;
let refuseRcpt: ((address: string) => { code: number; message: string } | "drop" | null) | null = null;
let listener: SmtpListener;
let server: Awaited<ReturnType<typeof startApiServer>>;
let p: Awaited<ReturnType<typeof projectWithKey>>;
let box: Mailbox;

beforeAll(async () => {
  sink = await startSink((m) => answer?.(m) ?? null, { rcpt: (a) => refuseRcpt?.(a) ?? null });
  process.env.SMTP_RELAY_URL = sink.url;
  process.env.MAIL_RETRY_BASE_SECONDS = "60";
  process.env.EMAIL_DAILY_LIMIT = "1000";
  resetEnvCache();
  server = await startApiServer();
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
  p = await projectWithKey("Relay sends");
  box = await seedMailbox(p.project.id);
});
afterAll(async () => {
  closeRelayTransports();
  await listener.close();
  await server.close();
  await sink.close();
  for (const k of ["SMTP_RELAY_URL", "MAIL_RETRY_BASE_SECONDS", "EMAIL_DAILY_LIMIT"]) delete process.env[k];
  resetEnvCache();
});
beforeEach(() => {
  answer = null;
  refuseRcpt = null;
});

const send = (args: Record<string, unknown>) => call(sendMessage, p.mcp, { inboxId: box.id, subject: "Hello", text: "Hi there.", ...args });
const message = async (id: string) => (await (await getDb()).select().from(mailMessages).where(eq(mailMessages.id, id)))[0];
const deliveries = async (id: string) => (await getDb()).select().from(mailDeliveries).where(eq(mailDeliveries.messageId, id));
/** Every body the sink read for a message (kept, refused or dropped), found by its Message-ID. */
const bodiesOf = (id: string) => sink.bodies.filter((b) => b.raw.toString().includes(`<${id}@`));
/** Makes every job of the message's deliveries due now, as if its backoff had passed. */
async function dueNow(id: string) {
  const db = await getDb();
  for (const d of await deliveries(id))
    await db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(sql`${jobs.dedupeKey} like ${`${d.id}%`}`);
}
const headerLines = (raw: Buffer, name: string) => {
  const head = raw
    .toString("latin1")
    .split(/\r\n\r\n/)[0]
    .replace(/\r\n[ \t]+/g, " ");
  return head.split("\r\n").filter((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
};

describe("send_message through the relay", () => {
  // Retried like delivery.test.ts's DKIM test (one unexplained mailauth `fail` in CI there); the assertion prints
  // mailauth's reason, and each try sends a message of its own.
  it("sends one SMTP transaction with every outside recipient, bcc in the envelope only, signed", { retry: 2 }, async () => {
    const out = await send({
      to: ["ann@example.com"],
      cc: ["ben@example.net"],
      bcc: ["secret@example.org"],
      subject: "Plans",
      headers: { "X-Campaign": "spring-7" },
    });
    await drainJobs();
    const got = bodiesOf(out.message_id);
    expect(got).toHaveLength(1);
    expect(got[0].from).toBe(box.address);
    expect([...got[0].to].sort()).toEqual(["ann@example.com", "ben@example.net", "secret@example.org"]);
    const raw = got[0].raw;
    expect(raw.toString()).not.toMatch(/secret@example\.org/);
    expect(headerLines(raw, "Bcc")).toEqual([]);
    expect(headerLines(raw, "Subject")).toEqual(["Subject: Plans"]);
    expect(headerLines(raw, "X-Campaign")).toEqual(["X-Campaign: spring-7"]);
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe(`<${out.message_id}@brynth.localhost>`);

    const domain = await ensureDefaultDomain(await getDb());
    const verified = await dkimVerify(raw, { resolver: fakeResolver(dkimTxt(domain)) });
    expect(verified.results[0].status.result, JSON.stringify(verified.results[0].status)).toBe("pass");

    expect(await message(out.message_id)).toMatchObject({ status: "sent", sendStatus: "sent", sendReason: null });
    const [d] = await deliveries(out.message_id);
    expect(d).toMatchObject({ route: "relay", status: "sent", rejected: [] });
    expect([...d.accepted].sort()).toEqual(["ann@example.com", "ben@example.net", "secret@example.org"]);
  });
});

describe("reply_to_message over real SMTP", () => {
  it("carries In-Reply-To and References from the stored message, and a reply comes back into the thread", async () => {
    // An outside sender writes to the box through the built-in listener, with nodemailer.
    await sendTo(listener.port, {
      from: "eve@outside.example",
      to: box.address,
      subject: "Opening hours",
      text: "When are you open?",
      messageId: "<q1@outside.example>",
      references: ["<root@outside.example>"],
    });
    const db = await getDb();
    const [question] = await db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.mailboxId, box.id), eq(mailMessages.rfcMessageId, "q1@outside.example")));
    const out = await call(replyToMessage, p.mcp, { inboxId: box.id, messageId: "<q1@outside.example>", text: "Nine to five." });
    expect(out.thread_id).toBe(question.threadId);
    await drainJobs();
    const [got] = bodiesOf(out.message_id);
    expect(got.to).toEqual(["eve@outside.example"]);
    expect(headerLines(got.raw, "In-Reply-To")).toEqual(["In-Reply-To: <q1@outside.example>"]);
    expect(headerLines(got.raw, "References")).toEqual(["References: <root@outside.example> <q1@outside.example>"]);
    expect(headerLines(got.raw, "Subject")).toEqual(["Subject: Re: Opening hours"]);

    // Eve answers our reply: it joins the same thread.
    await sendTo(listener.port, {
      from: "eve@outside.example",
      to: box.address,
      subject: "Re: Opening hours",
      text: "Thanks!",
      inReplyTo: `<${out.message_id}@brynth.localhost>`,
      references: ["<root@outside.example>", "<q1@outside.example>", `<${out.message_id}@brynth.localhost>`],
    });
    const [thanks] = await db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.mailboxId, box.id), eq(mailMessages.subject, "Re: Opening hours"), eq(mailMessages.direction, "inbound")));
    expect(thanks.threadId).toBe(question.threadId);
    expect(thanks.inReplyToMessageId).toBe(out.message_id);
  });

  it("never lets a hostile stored Message-ID reach a header", async () => {
    await sendTo(listener.port, { from: "mallory@outside.example", to: box.address, subject: "Hostile", text: "hi", messageId: "<h1@outside.example>" });
    const db = await getDb();
    // As if a parser had let it through: an id that would end the In-Reply-To line and start a Bcc header.
    const [stored] = await db
      .update(mailMessages)
      .set({ rfcMessageId: "a>\r\nBcc: x@y", references: ["ok@outside.example", "b>\r\nBcc: z@y", "c d@e"] })
      .where(and(eq(mailMessages.mailboxId, box.id), eq(mailMessages.rfcMessageId, "h1@outside.example")))
      .returning();
    const out = await call(replyToMessage, p.mcp, { inboxId: box.id, messageId: stored.id, text: "Careful." });
    await drainJobs();
    const [got] = bodiesOf(out.message_id);
    expect(got.to).toEqual(["mallory@outside.example"]);
    const text = got.raw.toString("latin1");
    // As a header line or the injected text: `bcc` alone turns up in a DKIM signature's base64 about once in 100 runs.
    expect(text).not.toMatch(/^\s*Bcc:|Bcc: [xz]@y/im);
    expect(text).not.toContain("x@y");
    expect(headerLines(got.raw, "In-Reply-To")).toEqual([]);
    expect(headerLines(got.raw, "References")).toEqual(["References: <ok@outside.example>"]);
  });

  it("delivers a reply between two inboxes of this instance into the first one's thread", async () => {
    const other = await seedMailbox(p.project.id);
    const first = await send({ to: [other.address], subject: "Lunch?", text: "Noon?" });
    await drainJobs();
    const db = await getDb();
    const [arrived] = await db.select().from(mailMessages).where(eq(mailMessages.mailboxId, other.id));
    const reply = await call(replyToMessage, p.mcp, { inboxId: other.id, messageId: arrived.id, text: "Noon works." });
    expect(reply.thread_id).toBe(arrived.threadId);
    await drainJobs();
    const [back] = await db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.mailboxId, box.id), eq(mailMessages.direction, "inbound"), eq(mailMessages.subject, "Re: Lunch?")));
    expect(back.threadId).toBe(first.thread_id);
    expect(back.inReplyToMessageId).toBe(first.message_id);
    expect(await message(reply.message_id)).toMatchObject({ status: "sent", sendStatus: "sent" });
    expect(bodiesOf(reply.message_id)).toEqual([]);
  });
});

describe("honest delivery states", () => {
  it("leaves a message send_unknown when the relay drops the connection after the body, and never retries it", async () => {
    answer = (m) => (m.to.includes("drop@example.com") ? "drop" : null);
    const out = await send({ to: ["drop@example.com"], subject: "Maybe" });
    await drainJobs();
    expect(await message(out.message_id)).toMatchObject({
      status: "unknown",
      sendStatus: "send_unknown",
      sendReason: expect.stringContaining("may or may not"),
    });
    const [d] = await deliveries(out.message_id);
    expect(d).toMatchObject({ status: "unknown", attempts: 1 });
    expect(d.lastError).toMatch(/Connection closed/);
    answer = null;
    await dueNow(out.message_id);
    await drainJobs();
    expect(bodiesOf(out.message_id)).toHaveLength(1);
    expect(await message(out.message_id)).toMatchObject({ sendStatus: "send_unknown" });
  });

  it("leaves send_unknown, and sends nothing, a delivery an earlier attempt left sending when its instance died", async () => {
    const out = await send({ to: ["crashed@example.com"], subject: "Interrupted" });
    const [queued] = await deliveries(out.message_id);
    // What startDelivery leaves behind when the process is killed while the relay has the message: the delivery
    // taken (sending, one attempt), no outcome recorded; the job's lease then expires and another runner takes it.
    await (await getDb()).update(mailDeliveries).set({ status: "sending", attempts: 1 }).where(eq(mailDeliveries.id, queued.id));
    await drainJobs();
    // Before: sent again, so a message the relay had taken went out twice.
    expect(bodiesOf(out.message_id)).toHaveLength(0);
    const [d] = await deliveries(out.message_id);
    expect(d).toMatchObject({ status: "unknown", attempts: 2, lastError: expect.stringContaining("may have taken the message") });
    expect(await message(out.message_id)).toMatchObject({ status: "unknown", sendStatus: "send_unknown" });
  });

  // Found by helper-103: an email_send the owner approved while delete_inbox was withdrawing it (the approval's
  // commit first) went out from the deleted address, which any project may take at once.
  it("sends nothing from a mailbox deleted after the message was queued, and says why", async () => {
    const from = await seedMailbox(p.project.id);
    const out = await call(sendMessage, p.mcp, { inboxId: from.id, to: ["late@example.com"], subject: "Too late", text: "Hi." });
    await (await getDb()).update(mailboxes).set({ deletedAt: sql`now()` }).where(eq(mailboxes.id, from.id));
    await drainJobs();
    expect(bodiesOf(out.message_id)).toHaveLength(0);
    const [d] = await deliveries(out.message_id);
    expect(d).toMatchObject({ status: "failed", lastError: expect.stringContaining("sending mailbox was deleted") });
    expect(await message(out.message_id)).toMatchObject({ status: "failed", sendStatus: "failed" });
  });

  it("retries a connection dropped before the body (at RCPT), which cannot have delivered", async () => {
    refuseRcpt = (a) => (a === "flaky@example.com" ? "drop" : null);
    const out = await send({ to: ["flaky@example.com"] });
    await drainJobs();
    expect((await deliveries(out.message_id))[0]).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringMatching(/Connection closed/) });
    expect(bodiesOf(out.message_id)).toHaveLength(0);
    refuseRcpt = null;
    await dueNow(out.message_id);
    await drainJobs();
    expect(await message(out.message_id)).toMatchObject({ status: "sent", sendStatus: "sent" });
    expect(bodiesOf(out.message_id)).toHaveLength(1);
  });

  it("retries a 451 and then sends", async () => {
    answer = () => ({ code: 451, message: "4.3.0 Try again later" });
    const out = await send({ to: ["later@example.com"] });
    await drainJobs();
    expect(await message(out.message_id)).toMatchObject({ status: "queued", sendStatus: "queued" });
    expect((await deliveries(out.message_id))[0]).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringContaining("Try again later") });
    answer = null;
    await dueNow(out.message_id);
    await drainJobs();
    expect(await message(out.message_id)).toMatchObject({ status: "sent", sendStatus: "sent" });
    expect(bodiesOf(out.message_id)).toHaveLength(2);
  });

  it("fails at once on a 550 at DATA, with the relay's reply as send_reason", async () => {
    answer = () => ({ code: 550, message: "5.7.1 Message refused" });
    const out = await send({ to: ["refused@example.com"] });
    await drainJobs();
    const row = await message(out.message_id);
    expect(row).toMatchObject({ status: "failed", sendStatus: "failed", attempts: 1 });
    expect(row.sendReason).toContain("refused@example.com");
    expect(row.sendReason).toContain("Message refused");
    const rejected = await (await getDb())
      .select()
      .from(mailEvents)
      .where(and(eq(mailEvents.messageId, out.message_id), eq(mailEvents.type, "message.rejected")));
    expect(rejected).toHaveLength(1);
    await dueNow(out.message_id);
    await drainJobs();
    expect(bodiesOf(out.message_id)).toHaveLength(1);
  });

  it("sends to the others when the relay refuses one recipient of three at RCPT, and says which", async () => {
    refuseRcpt = (a) => (a === "nobody@example.com" ? { code: 550, message: "5.1.1 No such user" } : null);
    const out = await send({ to: ["one@example.com", "nobody@example.com"], cc: ["two@example.com"] });
    await drainJobs();
    const [d] = await deliveries(out.message_id);
    expect(d.status).toBe("sent");
    expect(d.accepted.sort()).toEqual(["one@example.com", "two@example.com"]);
    expect(d.rejected).toEqual([{ recipient: "nobody@example.com", response: expect.stringContaining("No such user") }]);
    const row = await message(out.message_id);
    expect(row).toMatchObject({ status: "sent", sendStatus: "sent" });
    expect(row.sendReason).toMatch(/^nobody@example\.com: .*No such user/);
    expect(bodiesOf(out.message_id)[0].to.sort()).toEqual(["one@example.com", "two@example.com"]);
  });

  it("fails at once when the relay refuses every recipient at RCPT", async () => {
    refuseRcpt = () => ({ code: 550, message: "5.1.1 No such user" });
    const out = await send({ to: ["gone1@example.com", "gone2@example.com"] });
    await drainJobs();
    expect(await message(out.message_id)).toMatchObject({ status: "failed", sendStatus: "failed", attempts: 1 });
    expect(bodiesOf(out.message_id)).toHaveLength(0);
  });
});

describe("the owner resolves send_unknown (POST /owner/messages/{id}/resolve)", () => {
  const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;
  const resolve = (id: string, action: string) =>
    fetch(`${server.url}/api/v1/owner/messages/${id}/resolve`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json", "x-brynth-project": p.project.id },
      body: JSON.stringify({ action }),
    });
  async function unknownMessage(to: string) {
    answer = (m) => (m.to.includes(to) ? "drop" : null);
    const out = await send({ to: [to], subject: `Unknown for ${to}` });
    await drainJobs();
    answer = null;
    expect((await message(out.message_id)).sendStatus).toBe("send_unknown");
    return out.message_id as string;
  }

  it("resend sends exactly the stored bytes once more", async () => {
    const id = await unknownMessage("again@example.com");
    const res = await resolve(id, "resend");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ message_id: id, action: "resend", status: "queued", send_status: "queued" });
    await drainJobs();
    const bodies = bodiesOf(id);
    expect(bodies).toHaveLength(2);
    expect(bodies[1].raw.equals(bodies[0].raw)).toBe(true);
    expect(await message(id)).toMatchObject({ status: "sent", sendStatus: "sent" });
    // Resolved: a second decision is a CONFLICT and changes nothing.
    const again = await resolve(id, "mark_failed");
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("CONFLICT");
    expect((await message(id)).status).toBe("sent");
  });

  it("mark_sent and mark_failed settle the message from its deliveries", async () => {
    const sent = await unknownMessage("did-arrive@example.com");
    expect(await (await resolve(sent, "mark_sent")).json()).toMatchObject({ status: "sent", send_status: "sent" });
    expect((await deliveries(sent))[0]).toMatchObject({ status: "sent", response: expect.stringContaining("owner") });
    const db = await getDb();
    const events = await db
      .select()
      .from(mailEvents)
      .where(and(eq(mailEvents.messageId, sent), eq(mailEvents.type, "message.sent")));
    expect(events).toHaveLength(1);

    const failed = await unknownMessage("did-not@example.com");
    expect(await (await resolve(failed, "mark_failed")).json()).toMatchObject({
      status: "failed",
      send_status: "failed",
      send_reason: expect.stringContaining("owner"),
    });
    expect(bodiesOf(failed)).toHaveLength(1);
  });

  it("refuses a message not in send_unknown (CONFLICT), an unknown id (NOT_FOUND) and a bad action", async () => {
    const out = await send({ to: ["fine@example.com"] });
    await drainJobs();
    expect((await resolve(out.message_id, "resend")).status).toBe(409);
    expect((await resolve("msg_nope", "resend")).status).toBe(404);
    const bad = await resolve(out.message_id, "retry");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("validation_error");
    expect(bodiesOf(out.message_id)).toHaveLength(1);
  });

  it("keeps a bounce that the first attempt's report recorded while the resend waited", async () => {
    answer = (m) => (m.to.includes("ra@example.com") ? "drop" : null);
    const out = await send({ to: ["ra@example.com", "rb@example.com"], subject: "Resend race" });
    await drainJobs();
    answer = null;
    expect((await message(out.message_id)).sendStatus).toBe("send_unknown");
    expect((await resolve(out.message_id, "resend")).status).toBe(200);
    // The relay's report about the first attempt arrives before the resend runs: rb bounced.
    const dsn = dsnReport({ to: box.address, rfcId: `${out.message_id}@brynth.localhost`, failed: "rb@example.com" });
    expect(await sendReport(listener.port, box.address, dsn)).toMatch(/^250/);
    await drainJobs();
    // Before: the resend's result replaced accepted and rejected whole, and rb read as delivered.
    const [d] = await deliveries(out.message_id);
    expect(d.rejected).toEqual([expect.objectContaining({ recipient: "rb@example.com" })]);
    expect(d.accepted).toEqual(["ra@example.com"]);
    expect((await message(out.message_id)).sendReason).toMatch(/rb@example\.com/);
  });
});

describe("bounces", () => {
  /** A DSN (RFC 3464) from the relay about one of our messages, through the listener with a null sender. */
  async function bounce(rfcId: string, failed: string, status = "5.1.1") {
    expect(await sendReport(listener.port, box.address, dsnReport({ to: box.address, rfcId, failed, status }))).toMatch(/^250/);
  }

  it("records a bounced recipient on its delivery, emits message.bounced and blocks further sends to it", async () => {
    const out = await send({ to: ["alive@example.com", "dead@example.com"], cc: ["also@example.com"], subject: "Newsletter" });
    await drainJobs();
    const rfcId = `${out.message_id}@brynth.localhost`;
    await bounce(rfcId, "Dead@example.com");
    const [d] = await deliveries(out.message_id);
    expect(d.status).toBe("sent");
    expect(d.rejected).toEqual([{ recipient: "dead@example.com", response: expect.stringMatching(/^bounced: .*Recipient address rejected/) }]);
    const row = await message(out.message_id);
    expect(row).toMatchObject({ status: "sent", sendStatus: "sent" });
    expect(row.sendReason).toMatch(/^dead@example\.com: bounced/);

    const db = await getDb();
    const [event] = await db
      .select()
      .from(mailEvents)
      .where(and(eq(mailEvents.messageId, out.message_id), eq(mailEvents.type, "message.bounced")));
    expect(event.summary).toMatchObject({ to: ["dead@example.com"], subject: "Newsletter" });
    const [entry] = await db
      .select()
      .from(mailListEntries)
      .where(and(eq(mailListEntries.mailboxId, box.id), eq(mailListEntries.entry, "dead@example.com")));
    expect(entry).toMatchObject({ direction: "send", type: "block", reason: "bounced: 5.1.1", managed: true });

    // The same DSN again changes nothing.
    await bounce(rfcId, "dead@example.com");
    expect((await deliveries(out.message_id))[0].rejected).toHaveLength(1);
    expect(
      await db
        .select()
        .from(mailEvents)
        .where(and(eq(mailEvents.messageId, out.message_id), eq(mailEvents.type, "message.bounced"))),
    ).toHaveLength(1);

    const denied = await refusal(sendMessage, p.mcp, { inboxId: box.id, to: ["ok@example.com"], cc: ["dead@example.com"], subject: "Again", text: "Hi" });
    expect(denied.code).toBe("POLICY_DENIED");
    expect(denied.details).toMatchObject({ field: "cc.0", list: "send/block", entry: "dead@example.com" });
    const locked = await refusal(deleteListEntryTool, p.mcp, { inboxId: box.id, direction: "send", type: "block", entry: "dead@example.com" });
    expect(locked.code).toBe("CONFLICT");
    expect(locked.message).toContain("bounced: 5.1.1");
    expect(await db.select().from(mailListEntries).where(eq(mailListEntries.id, entry.id))).toHaveLength(1);
  });

  it("settles an unknown delivery as sent when a DSN for one of its recipients proves the relay took it", async () => {
    answer = (m) => (m.to.includes("maybe-a@example.com") ? "drop" : null);
    const out = await send({ to: ["maybe-a@example.com", "maybe-b@example.com"], subject: "Proof" });
    await drainJobs();
    answer = null;
    expect((await message(out.message_id)).sendStatus).toBe("send_unknown");
    await bounce(`${out.message_id}@brynth.localhost`, "maybe-b@example.com");
    expect((await deliveries(out.message_id))[0]).toMatchObject({ status: "sent" });
    expect(await message(out.message_id)).toMatchObject({
      status: "sent",
      sendStatus: "sent",
      sendReason: expect.stringMatching(/^maybe-b@example\.com: bounced/),
    });
  });

  it("bounces the whole message when its only recipient bounces", async () => {
    const out = await send({ to: ["solo@example.com"], subject: "Solo" });
    await drainJobs();
    await bounce(`${out.message_id}@brynth.localhost`, "solo@example.com", "5.2.1");
    expect((await deliveries(out.message_id))[0]).toMatchObject({ status: "bounced" });
    expect(await message(out.message_id)).toMatchObject({ status: "bounced", sendStatus: "bounced", sendReason: expect.stringContaining("solo@example.com") });
    const db = await getDb();
    const [entry] = await db
      .select()
      .from(mailListEntries)
      .where(and(eq(mailListEntries.mailboxId, box.id), eq(mailListEntries.entry, "solo@example.com")));
    expect(entry.reason).toBe("bounced: 5.2.1");
  });
});

describe("complaints (ARF)", () => {
  // The recipients' provider runs the feedback loop: its reports are DKIM-signed for example.com, its users' domain.
  const fbl = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const fblKey = fbl.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  let fblListener: SmtpListener;
  beforeAll(async () => {
    const txt = `v=DKIM1; k=rsa; p=${fbl.publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;
    fblListener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver({ "fbl._domainkey.example.com": txt }) });
  });
  afterAll(() => fblListener.close());

  /** An RFC 5965 abuse report about one of our messages, through the listener as a feedback loop sends it. */
  async function complain(rfcId: string, rcpt: string | null, feedbackType = "abuse", o: { from?: string; signed?: boolean } = {}) {
    const from = o.from ?? "fbl@example.com";
    const arf = [
      `From: Feedback Loop <${from}>`,
      `To: ${box.address}`,
      "Subject: Abuse report",
      `Message-ID: <arf-${rfcId}-${feedbackType}-${rcpt}>`,
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=feedback-report; boundary="f1"',
      "",
      "--f1",
      "Content-Type: text/plain",
      "",
      "This is an email abuse report.",
      "--f1",
      "Content-Type: message/feedback-report",
      "",
      `Feedback-Type: ${feedbackType}`,
      "User-Agent: FBL/1.0",
      "Version: 1",
      `Original-Mail-From: <${box.address}>`,
      ...(rcpt ? [`Original-Rcpt-To: <${rcpt}>`] : []),
      "",
      "--f1",
      "Content-Type: text/rfc822-headers",
      "",
      `Message-ID: <${rfcId}>`,
      `From: ${box.address}`,
      "",
      "--f1--",
      "",
    ].join("\r\n");
    const raw = Buffer.from(arf);
    const signature = { signingDomain: "example.com", selector: "fbl", privateKey: fblKey };
    const signed = o.signed === false ? raw : Buffer.concat([Buffer.from((await dkimSign(raw, { ...signature, signatureData: [signature] })).signatures), raw]);
    await sendTo(fblListener.port, { raw: signed, envelope: { from, to: [box.address] } });
  }

  it("labels the message complained, emits message.complained and blocks the complaining recipient", async () => {
    const out = await send({ to: ["happy@example.com", "angry@example.com"], subject: "Offer" });
    await drainJobs();
    const rfcId = `${out.message_id}@brynth.localhost`;
    await complain(rfcId, "Angry@example.com");
    const db = await getDb();
    expect((await message(out.message_id)).labels).toContain("complained");
    const events = await db
      .select()
      .from(mailEvents)
      .where(and(eq(mailEvents.messageId, out.message_id), eq(mailEvents.type, "message.complained")));
    expect(events).toHaveLength(1);
    expect(events[0].summary).toMatchObject({ to: ["angry@example.com"], subject: "Offer" });
    const entries = await db.select().from(mailListEntries).where(eq(mailListEntries.mailboxId, box.id));
    expect(entries.find((e) => e.entry === "angry@example.com")).toMatchObject({
      direction: "send",
      type: "block",
      reason: "complained: abuse",
      managed: true,
    });
    expect(entries.some((e) => e.entry === "happy@example.com")).toBe(false);
    // A repeated report changes nothing.
    await complain(rfcId, "angry@example.com");
    expect(
      await db
        .select()
        .from(mailEvents)
        .where(and(eq(mailEvents.messageId, out.message_id), eq(mailEvents.type, "message.complained"))),
    ).toHaveLength(1);
    expect((await refusal(sendMessage, p.mcp, { inboxId: box.id, to: ["angry@example.com"], subject: "Again", text: "Hi" })).code).toBe("POLICY_DENIED");
  });

  it("blocks each recipient who complains about the same message, once", async () => {
    const out = await send({ to: ["first-angry@example.com", "second-angry@example.com"], subject: "Offer 2" });
    await drainJobs();
    const rfcId = `${out.message_id}@brynth.localhost`;
    await complain(rfcId, "first-angry@example.com");
    // Before: a message already labelled complained was skipped, so the second complainer could be mailed again.
    await complain(rfcId, "second-angry@example.com");
    const db = await getDb();
    const events = await db
      .select()
      .from(mailEvents)
      .where(and(eq(mailEvents.messageId, out.message_id), eq(mailEvents.type, "message.complained")));
    // One event per complaint, each naming its complainer (in no particular order).
    expect(events.map((e) => (e.summary as { to: string[] }).to).sort()).toEqual([["first-angry@example.com"], ["second-angry@example.com"]]);
    for (const who of ["first-angry@example.com", "second-angry@example.com"]) {
      expect((await refusal(sendMessage, p.mcp, { inboxId: box.id, to: [who], subject: "Again", text: "Hi" })).code).toBe("POLICY_DENIED");
    }
  });

  it("believes a report only for recipients of a domain it is authenticated for: another recipient's forgery blocks nobody", async () => {
    const out = await send({ to: ["victim2@example.com"], bcc: ["mallory2@elsewhere.example"], subject: "Group 2" });
    await drainJobs();
    const rfcId = `${out.message_id}@brynth.localhost`;
    // Before: the bcc'd recipient, who knows the Message-ID, put the other recipient on the block list.
    await complain(rfcId, "victim2@example.com", "abuse", { from: "mallory2@elsewhere.example", signed: false });
    // Signed, but for example.com, about a recipient elsewhere: not the feedback loop's to speak for.
    const far = await send({ to: ["someone@elsewhere.example"], subject: "Group 3" });
    await drainJobs();
    await complain(`${far.message_id}@brynth.localhost`, "someone@elsewhere.example");
    const entries = await (await getDb()).select().from(mailListEntries).where(eq(mailListEntries.mailboxId, box.id));
    expect(entries.filter((e) => ["victim2@example.com", "someone@elsewhere.example"].includes(e.entry))).toEqual([]);
    for (const id of [out.message_id, far.message_id]) expect((await message(id)).labels).not.toContain("complained");
  });

  it("takes a single recipient as the complainer when the report names nobody, and ignores not-spam reports", async () => {
    const solo = await send({ to: ["quiet-one@example.com"], subject: "Solo" });
    const other = await send({ to: ["pleased@example.com"], subject: "Fine" });
    await drainJobs();
    await complain(`${solo.message_id}@brynth.localhost`, null);
    await complain(`${other.message_id}@brynth.localhost`, "pleased@example.com", "not-spam");
    const db = await getDb();
    const entries = await db.select().from(mailListEntries).where(eq(mailListEntries.mailboxId, box.id));
    expect(entries.find((e) => e.entry === "quiet-one@example.com")).toMatchObject({ managed: true });
    expect(entries.some((e) => e.entry === "pleased@example.com")).toBe(false);
    expect((await message(other.message_id)).labels).not.toContain("complained");
  });
});
