import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, like, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailDomains } from "@/lib/db/schema/mail";
import { mailEvents, mailRejections } from "@/lib/db/schema/mail-events";
import { newId } from "@/lib/ids";
import { purgeMailEvents } from "@/lib/mail/events/purge-mail-events";
import { purgeMailRejections } from "@/lib/mail/inbound/purge-rejections";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver, sendTo, waitFor } from "@/lib/mail/__tests__/helpers";
import { SMTPConnection } from "@/lib/mail/__tests__/smtp-connection";
import { addListEntry, addMailbox, mailEventsOf, messageByRfc, queueSent, threadOf } from "@/lib/mail/__tests__/mail-store-helpers";

/** Categories (blocked, unauthenticated, spam), allow/block lists (L1) and the SMTP refusal log, through the listener. */
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;
const relays = envSettings("TRUSTED_RELAYS");

beforeAll(async () => {
  seeded = await seedProject({ name: "Categories" });
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    maxBytes: 32 * 1024,
    resolver: fakeResolver({
      "sender.example": "v=spf1 ip4:127.0.0.1 -all",
      "friend.example": "v=spf1 ip4:127.0.0.1 -all",
      "mail.evil.example": "v=spf1 ip4:127.0.0.1 -all",
      "strict.example": "v=spf1 ip4:192.0.2.1 -all",
      "_dmarc.strict.example": "v=DMARC1; p=reject",
    }),
    onError: () => {},
  });
});
afterAll(async () => {
  relays.restore();
  await listener.close();
});

const mailbox = (local: string) => addMailbox(seeded.project.id, local);
const types = async (messageId: string) => (await mailEventsOf(messageId)).map((e) => e.type);

describe("allow and block lists (L1)", () => {
  it("stores mail from a receive-blocked domain (subdomains too) as blocked and hidden, with message.received.blocked only", async () => {
    const mb = await mailbox("blocks");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "block", entry: "evil.example" });
    await sendTo(listener.port, { from: "eve@mail.evil.example", to: mb.address, subject: "Hi", text: "x", messageId: "<blk-1@mail.evil.example>" });
    const m = await messageByRfc(mb.id, "blk-1@mail.evil.example");
    expect(m).toMatchObject({ category: "blocked", blocked: true, labels: ["received", "unread", "blocked"] });
    expect(await types(m.id)).toEqual(["message.received.blocked"]);
    const t = await threadOf(m.threadId);
    expect(t.visibleAt).toBeNull();
    expect(t.labels).toEqual(["blocked", "received", "unread"]);
  });

  it("blocks everyone outside a non-empty receive allow list, and the mailbox's own list wins over the project's", async () => {
    const mb = await mailbox("allow");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "allow", entry: "friend.example" });
    await sendTo(listener.port, { from: "stranger@sender.example", to: mb.address, subject: "Hello", text: "x", messageId: "<al-1@sender.example>" });
    await sendTo(listener.port, { from: "pal@friend.example", to: mb.address, subject: "Hello", text: "x", messageId: "<al-2@friend.example>" });
    const out = await messageByRfc(mb.id, "al-1@sender.example");
    expect(out.category).toBe("blocked");
    expect(await types(out.id)).toEqual(["message.received.blocked"]);
    const friend = await messageByRfc(mb.id, "al-2@friend.example");
    expect(friend.category).toBe("normal");
    expect(await types(friend.id)).toEqual(["message.received"]);

    // A project-wide block of friend.example does not override this mailbox's allow entry…
    await addListEntry({ projectId: seeded.project.id, mailboxId: null, direction: "receive", type: "block", entry: "friend.example" });
    await sendTo(listener.port, { from: "pal@friend.example", to: mb.address, subject: "Again", text: "x", messageId: "<al-3@friend.example>" });
    expect((await messageByRfc(mb.id, "al-3@friend.example")).category).toBe("normal");
    // …but blocks it in a mailbox without lists of its own.
    const plain = await mailbox("plain");
    await sendTo(listener.port, { from: "pal@friend.example", to: plain.address, subject: "Again", text: "x", messageId: "<al-4@friend.example>" });
    expect((await messageByRfc(plain.id, "al-4@friend.example")).category).toBe("blocked");
  });

  it("checks replies to this mailbox's own mail against reply lists only", async () => {
    const mb = await mailbox("replies");
    // Only friends may start a conversation, but anyone we wrote to may answer.
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "allow", entry: "friend.example" });
    const [sent] = await queueSent(mb, { to: ["dave@sender.example"], subject: "Quote", text: "Here is the quote." });
    const rfc = `<${sent.id}@brynth.localhost>`;
    await sendTo(listener.port, {
      from: "dave@sender.example",
      to: mb.address,
      subject: "Re: Quote",
      text: "ok",
      messageId: "<rp-1@sender.example>",
      inReplyTo: rfc,
    });
    const reply = await messageByRfc(mb.id, "rp-1@sender.example");
    expect(reply.category).toBe("normal");
    expect(reply.inReplyToMessageId).toBe(sent.id);

    // A reply block list applies to replies, and a receive block does not.
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "reply", type: "block", entry: "dave@sender.example" });
    await sendTo(listener.port, {
      from: "dave@sender.example",
      to: mb.address,
      subject: "Re: Quote",
      text: "again",
      messageId: "<rp-2@sender.example>",
      inReplyTo: rfc,
    });
    expect((await messageByRfc(mb.id, "rp-2@sender.example")).category).toBe("blocked");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "block", entry: "erin@sender.example" });
    await sendTo(listener.port, {
      from: "erin@sender.example",
      to: mb.address,
      subject: "Re: Quote",
      text: "me too",
      messageId: "<rp-3@sender.example>",
      inReplyTo: rfc,
    });
    expect((await messageByRfc(mb.id, "rp-3@sender.example")).category).toBe("normal");
  });
});

describe("authentication and spam categories", () => {
  it("stores DMARC-failing mail (p=reject) as unauthenticated, hidden, with message.received.unauthenticated", async () => {
    const mb = await mailbox("dmarc");
    await sendTo(listener.port, { from: "ceo@strict.example", to: mb.address, subject: "Wire money", text: "now", messageId: "<dm-1@strict.example>" });
    const m = await messageByRfc(mb.id, "dm-1@strict.example");
    expect(m.authentication).toMatchObject({ spf: "fail", dmarc: "fail" });
    expect(m).toMatchObject({ category: "unauthenticated", blocked: false, labels: ["received", "unread", "unauthenticated"] });
    expect(await types(m.id)).toEqual(["message.received.unauthenticated"]);
    expect((await threadOf(m.threadId)).visibleAt).toBeNull();
  });

  it("stores mail with no passing verdict at all as unauthenticated", async () => {
    const mb = await mailbox("nopass");
    await sendTo(listener.port, { from: "who@unknown.example", to: mb.address, subject: "Hi", text: "x", messageId: "<np-1@unknown.example>" });
    const m = await messageByRfc(mb.id, "np-1@unknown.example");
    expect(m.authentication).toMatchObject({ spf: "none", dkim: "none", dmarc: "none" });
    expect(m.category).toBe("unauthenticated");
  });

  it("believes X-Spam-Flag only from a trusted relay", async () => {
    const mb = await mailbox("spam");
    const spam = { from: "promo@sender.example", to: mb.address, subject: "Deal", text: "buy", headers: { "X-Spam-Flag": "YES" } };
    await sendTo(listener.port, { ...spam, messageId: "<sp-1@sender.example>" });
    expect((await messageByRfc(mb.id, "sp-1@sender.example")).category).toBe("normal");

    relays.set({ TRUSTED_RELAYS: "10.0.0.0/8, 127.0.0.1" });
    try {
      await sendTo(listener.port, { ...spam, messageId: "<sp-2@sender.example>" });
      const m = await messageByRfc(mb.id, "sp-2@sender.example");
      expect(m).toMatchObject({ category: "spam", labels: ["received", "unread", "spam"] });
      expect(await types(m.id)).toEqual(["message.received.spam"]);
      await sendTo(listener.port, { ...spam, headers: { "X-Spam-Status": "Yes, score=9.1 required=5.0" }, messageId: "<sp-3@sender.example>" });
      expect((await messageByRfc(mb.id, "sp-3@sender.example")).category).toBe("spam");
      await sendTo(listener.port, { ...spam, headers: { "X-Spam-Status": "No, score=0.1" }, messageId: "<sp-4@sender.example>" });
      expect((await messageByRfc(mb.id, "sp-4@sender.example")).category).toBe("normal");
    } finally {
      relays.restore();
    }
  });

  it("refuses to start with a TRUSTED_RELAYS entry that is not an IP or CIDR, naming the setting", async () => {
    const { env } = await import("@/lib/env");
    relays.set({ TRUSTED_RELAYS: "10.0.0.0/33" });
    try {
      expect(() => env()).toThrow(/TRUSTED_RELAYS: must be IP addresses or CIDR ranges/);
    } finally {
      relays.restore();
    }
  });
});

describe("SMTP refusals (mail_rejections)", () => {
  const rejections = async (rcpt: string) => (await getDb()).select().from(mailRejections).where(eq(mailRejections.rcpt, rcpt));
  /** A custom domain of the project, verified (its DKIM key is never used here). */
  const verifiedDomain = async (prefix: string) => {
    const domain = `${prefix}-${Date.now()}.example`;
    await (await getDb()).insert(mailDomains).values({
      id: newId("dom"),
      projectId: seeded.project.id,
      domain,
      dkimSelector: "sel",
      dkimPrivateKeyEnc: "unused",
      dkimPublicKey: "unused",
      verifiedAt: new Date(),
    });
    return domain;
  };

  it("records refusals that belong to a project: unknown address on its custom domain, disabled mailbox, oversize", async () => {
    const db = await getDb();
    const domain = await verifiedDomain("custom");
    const envelope = (to: string) => ({ envelope: { from: "bounce@sender.example", to: [to] }, from: "a@sender.example", to, subject: "x", text: "x" });
    await expect(sendTo(listener.port, envelope(`nobody@${domain}`))).rejects.toMatchObject({ responseCode: 550 });
    const [unknown] = await waitFor(async () => {
      const rows = await rejections(`nobody@${domain}`);
      return rows.length > 0 && rows;
    });
    expect(unknown).toMatchObject({
      projectId: seeded.project.id,
      mailboxId: null,
      remoteIp: "127.0.0.1",
      mailFrom: "bounce@sender.example",
      smtpCode: "550",
      reason: "5.1.1 No such mailbox here",
    });
    expect(unknown.helo).toBeTruthy();

    const off = await mailbox("disabled");
    await db.update(mailboxes).set({ status: "disabled" }).where(eq(mailboxes.id, off.id));
    await expect(sendTo(listener.port, envelope(off.address))).rejects.toMatchObject({ responseCode: 550 });
    const [disabled] = await waitFor(async () => {
      const rows = await rejections(off.address);
      return rows.length > 0 && rows;
    });
    expect(disabled).toMatchObject({ projectId: seeded.project.id, mailboxId: off.id, smtpCode: "550" });

    const big = await mailbox("big");
    await expect(sendTo(listener.port, { ...envelope(big.address), text: "x".repeat(64 * 1024) })).rejects.toMatchObject({ responseCode: 552 });
    const [oversize] = await waitFor(async () => {
      const rows = await rejections(big.address);
      return rows.length > 0 && rows;
    });
    expect(oversize).toMatchObject({ projectId: seeded.project.id, mailboxId: big.id, smtpCode: "552", reason: "5.3.4 Message exceeds the size limit" });
  });

  it("keeps at most 60 refusals a minute per domain, however many RCPTs a sender names", async () => {
    const db = await getDb();
    const domain = await verifiedDomain("flood");
    const conn = new SMTPConnection(listener.port);
    await conn.open();
    expect(await conn.cmd("EHLO flood.example")).toMatch(/^250 /);
    expect(await conn.cmd("MAIL FROM:<flood@sender.example>")).toMatch(/^250 /);
    for (let i = 0; i < 150; i++) expect(await conn.cmd(`RCPT TO:<nobody-${i}@${domain}>`)).toMatch(/^550 /);
    await conn.close();
    const count = async () =>
      (
        await db
          .select({ id: mailRejections.id })
          .from(mailRejections)
          .where(like(mailRejections.rcpt, `%@${domain}`))
      ).length;
    // The writes run in the background: wait until the rows stop coming.
    let seen = -1;
    for (let n = await count(); n !== seen; n = await count()) {
      seen = n;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(seen).toBe(60);
  });

  it("keeps no row for refusals that belong to nobody (the shared domain's unknown addresses, foreign domains)", async () => {
    const db = await getDb();
    const rcpt = `ghost-${Date.now()}@brynth.localhost`;
    await expect(sendTo(listener.port, { from: "a@sender.example", to: rcpt, subject: "x", text: "x" })).rejects.toMatchObject({ responseCode: 550 });
    await expect(sendTo(listener.port, { from: "a@sender.example", to: "x@gmail.com", subject: "x", text: "x" })).rejects.toMatchObject({ responseCode: 550 });
    // A later attributable refusal is recorded, so the earlier ones had their turn.
    const mb = await mailbox("marker");
    await db.update(mailboxes).set({ status: "disabled" }).where(eq(mailboxes.id, mb.id));
    await expect(sendTo(listener.port, { from: "a@sender.example", to: mb.address, subject: "x", text: "x" })).rejects.toMatchObject({ responseCode: 550 });
    await waitFor(async () => (await rejections(mb.address)).length > 0);
    expect(await rejections(rcpt)).toEqual([]);
    expect(await rejections("x@gmail.com")).toEqual([]);
  });
});

describe("retention", () => {
  it("purges mail events after 7 days and refusals after 30, keeping newer ones", async () => {
    const db = await getDb();
    const projectId = seeded.project.id;
    const ev = (id: string, days: number) => ({ id, projectId, type: "message.received", createdAt: sql`now() - make_interval(days => ${days})` });
    await db.insert(mailEvents).values([ev(newId("mev"), 8), ev(newId("mev"), 6)] as never);
    const rej = (id: string, days: number) => ({
      id,
      projectId,
      rcpt: `${id}@x.example`,
      smtpCode: "550",
      reason: "r",
      at: sql`now() - make_interval(days => ${days})`,
    });
    const oldRej = newId("rej");
    const newRej = newId("rej");
    await db.insert(mailRejections).values([rej(oldRej, 31), rej(newRej, 29)] as never);
    const old = await db
      .select({ id: mailEvents.id })
      .from(mailEvents)
      .where(and(eq(mailEvents.projectId, projectId), sql`created_at < now() - interval '7 days'`));
    expect(old).toHaveLength(1);
    await purgeMailEvents(db);
    await purgeMailRejections(db);
    expect(
      await db
        .select({ id: mailEvents.id })
        .from(mailEvents)
        .where(and(eq(mailEvents.projectId, projectId), sql`created_at < now() - interval '7 days'`)),
    ).toEqual([]);
    expect(
      await db
        .select({ id: mailEvents.id })
        .from(mailEvents)
        .where(and(eq(mailEvents.projectId, projectId), sql`created_at < now() - interval '5 days'`)),
    ).toHaveLength(1);
    const left = (await db.select({ id: mailRejections.id }).from(mailRejections).where(eq(mailRejections.projectId, projectId))).map((r) => r.id);
    expect(left).toContain(newRej);
    expect(left).not.toContain(oldRej);
  });
});
