import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { getDb } from "@/lib/db/client";
import { diskAttachments, diskTrash } from "@/lib/db/schema/disk";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { mailboxes, mailMessages, mailThreads, messageColumns } from "@/lib/db/schema/mail";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { addEmailSource, fakeResolver, latestEvents, sendTo, waitFor } from "@/lib/mail/__tests__/helpers";
import { addListEntry, addMailbox, mailEventsOf, messageByRfc, threadOf } from "@/lib/mail/__tests__/mail-store-helpers";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { defaultMailbox } from "@/lib/mail/project-address";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { OWNER_EMAIL, OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

/** Quarantine and the rejection log through the owner REST routes, with real mail through the SMTP listener. */
let listener: SmtpListener;
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let other: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  seeded = await seedProject({ name: "Quarantine" });
  other = await seedProject({ name: "Quarantine other" });
  server = await startApiServer();
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    maxBytes: 32 * 1024,
    resolver: fakeResolver({
      "sender.example": "v=spf1 ip4:127.0.0.1 -all",
      "evil.example": "v=spf1 ip4:127.0.0.1 -all",
      "strict.example": "v=spf1 ip4:192.0.2.1 -all",
      "_dmarc.strict.example": "v=DMARC1; p=reject",
    }),
    onError: () => {},
  });
});
afterAll(async () => {
  await listener.close();
  await server.close();
});

const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;
async function owner(method: string, path: string, projectId = seeded.project.id) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: basic, "x-brynth-project": projectId, "content-type": "application/json" },
    body: method === "POST" ? "{}" : undefined,
  });
  return { status: res.status, body: await res.json() };
}

let n = 0;
async function mail(to: string, from: string, subject = "Hello") {
  const id = `q-${++n}-${Date.now()}@${from.split("@")[1]}`;
  await sendTo(listener.port, { from, to, subject, text: `body ${n}`, messageId: `<${id}>` });
  return id;
}

describe("quarantine list", () => {
  it("lists blocked and unauthenticated mail newest first with the reason, filtered by mailbox and category, in pages", async () => {
    const mb = await addMailbox(seeded.project.id, "qlist");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "block", entry: "evil.example" });
    const blockedRfc = await mail(mb.address, "eve@evil.example", "Blocked one");
    const unauthRfc = await mail(mb.address, "ceo@strict.example", "Wire money");
    await mail(mb.address, "friend@sender.example", "Normal");
    const blocked = await messageByRfc(mb.id, blockedRfc);
    const unauth = await messageByRfc(mb.id, unauthRfc);

    const all = await owner("GET", `/owner/quarantine?inbox_id=${mb.id}`);
    expect(all.status).toBe(200);
    expect(all.body.messages.map((m: { id: string }) => m.id)).toEqual([unauth.id, blocked.id]);
    expect(all.body.messages[0]).toMatchObject({
      inbox_id: mb.id,
      inbox_address: mb.address,
      from: "ceo@strict.example",
      subject: "Wire money",
      category: "unauthenticated",
      reason: expect.stringMatching(/^SPF fail, DMARC fail/),
    });
    expect(all.body.messages[1]).toMatchObject({ category: "blocked", reason: "On this mailbox's receive block list: evil.example" });

    const byAddress = await owner("GET", `/owner/quarantine?inbox_id=${encodeURIComponent(mb.address.toUpperCase())}&category=blocked`);
    expect(byAddress.body.messages.map((m: { id: string }) => m.id)).toEqual([blocked.id]);

    const first = await owner("GET", `/owner/quarantine?inbox_id=${mb.id}&limit=1`);
    expect(first.body.messages.map((m: { id: string }) => m.id)).toEqual([unauth.id]);
    const second = await owner("GET", `/owner/quarantine?inbox_id=${mb.id}&limit=1&page_token=${first.body.next_page_token}`);
    expect(second.body.messages.map((m: { id: string }) => m.id)).toEqual([blocked.id]);
    expect(second.body.next_page_token).toBeNull();
  });

  // Blocked outranks unauthenticated: a spoof kept out by a list said only which list (found by helper-107).
  it("names a failed authentication beside the list that blocked the mail", async () => {
    const mb = await addMailbox(seeded.project.id, "qboth");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "allow", entry: "friend@sender.example" });
    const spoof = await messageByRfc(mb.id, await mail(mb.address, "ceo@strict.example"));
    const outsider = await messageByRfc(mb.id, await mail(mb.address, "stranger@sender.example"));
    const res = await owner("GET", `/owner/quarantine?inbox_id=${mb.id}`);
    expect(res.body.messages).toMatchObject([
      { id: outsider.id, category: "blocked", reason: "Not on this mailbox's receive allow list" },
      {
        id: spoof.id,
        category: "blocked",
        reason: expect.stringMatching(/^Not on this mailbox's receive allow list\. It also failed authentication: SPF fail, DMARC fail/),
      },
    ]);
  });

  it("explains an allow list that leaves the sender out, and a project-wide block", async () => {
    const allow = await addMailbox(seeded.project.id, "qallow");
    await addListEntry({ projectId: seeded.project.id, mailboxId: allow.id, direction: "receive", type: "allow", entry: "friend@sender.example" });
    const outsider = await messageByRfc(allow.id, await mail(allow.address, "stranger@sender.example"));
    const plain = await addMailbox(other.project.id, "qproject");
    await addListEntry({ projectId: other.project.id, mailboxId: null, direction: "receive", type: "block", entry: "bad@sender.example" });
    const projectBlocked = await messageByRfc(plain.id, await mail(plain.address, "bad@sender.example"));

    const a = await owner("GET", `/owner/quarantine?inbox_id=${allow.id}`);
    expect(a.body.messages).toMatchObject([{ id: outsider.id, category: "blocked", reason: "Not on this mailbox's receive allow list" }]);
    const b = await owner("GET", `/owner/quarantine?inbox_id=${plain.id}`, other.project.id);
    expect(b.body.messages).toMatchObject([{ id: projectBlocked.id, reason: "On the project's receive block list: bad@sender.example" }]);
  });

  it("leaves out the mail of deleted mailboxes", async () => {
    const mb = await addMailbox(seeded.project.id, "qgone");
    const m = await messageByRfc(mb.id, await mail(mb.address, "ceo@strict.example", "Gone"));
    const listed = async () => (await owner("GET", "/owner/quarantine?limit=100")).body.messages.map((r: { id: string }) => r.id);
    expect(await listed()).toContain(m.id);
    await (await getDb()).update(mailboxes).set({ deletedAt: new Date() }).where(eq(mailboxes.id, mb.id));
    expect(await listed()).not.toContain(m.id);
    // Nor can it be released by id: before, it turned normal in the deleted mailbox and message.received went out.
    const before = (await mailEventsOf(m.id)).length;
    expect(await owner("POST", `/owner/quarantine/${m.id}/release`)).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect((await mailEventsOf(m.id)).length).toBe(before);
  });

  it("says a trusted relay flagged spam", async () => {
    const relays = envSettings("TRUSTED_RELAYS");
    relays.set({ TRUSTED_RELAYS: "127.0.0.1" });
    try {
      const mb = await addMailbox(seeded.project.id, "qspam");
      const rfc = `q-spam-${Date.now()}@sender.example`;
      await sendTo(listener.port, {
        from: "promo@sender.example",
        to: mb.address,
        subject: "Deal",
        text: "buy",
        messageId: `<${rfc}>`,
        headers: { "X-Spam-Flag": "YES" },
      });
      const m = await messageByRfc(mb.id, rfc);
      const res = await owner("GET", `/owner/quarantine?inbox_id=${mb.id}&category=spam`);
      expect(res.body.messages).toMatchObject([{ id: m.id, category: "spam", reason: "A trusted relay (TRUSTED_RELAYS) marked it as spam." }]);
    } finally {
      relays.restore();
    }
  });

  it("refuses a bad category, a foreign page token and another project's mailbox", async () => {
    const bad = await owner("GET", "/owner/quarantine?category=normal");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_error");
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(["category"]);

    const mb = await addMailbox(seeded.project.id, "qtoken");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "block", entry: "evil.example" });
    await mail(mb.address, "a@evil.example");
    await mail(mb.address, "b@evil.example");
    const page = await owner("GET", `/owner/quarantine?inbox_id=${mb.id}&limit=1`);
    const foreign = await owner("GET", `/owner/quarantine?category=blocked&limit=1&page_token=${page.body.next_page_token}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details.map((d: { field: string }) => d.field)).toEqual(["page_token"]);

    const theirs = await addMailbox(other.project.id, "qtheirs");
    const hidden = await owner("GET", `/owner/quarantine?inbox_id=${theirs.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe("NOT_FOUND");
  });
});

describe("release", () => {
  it("makes the message normal mail, shows its thread, emits message.received and ledgers the owner's act", async () => {
    const mb = await addMailbox(seeded.project.id, "qrelease");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "block", entry: "evil.example" });
    const m = await messageByRfc(mb.id, await mail(mb.address, "eve@evil.example", "Let me in"));
    expect((await threadOf(m.threadId)).visibleAt).toBeNull();

    const res = await owner("POST", `/owner/quarantine/${m.id}/release`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: m.id, inbox_id: mb.id, thread_id: m.threadId, released_from: "blocked", labels: ["received", "unread"], event_id: null });
    const after = await messageByRfc(mb.id, m.rfcMessageId!);
    expect(after).toMatchObject({ category: "normal", blocked: false, labels: ["received", "unread"] });
    const thread = await threadOf(m.threadId);
    expect(thread.visibleAt?.toISOString()).toBe(m.msgAt.toISOString());
    expect(thread.labels).toEqual(["received", "unread"]);
    expect((await mailEventsOf(m.id)).map((e) => e.type)).toEqual(["message.received.blocked", "message.received"]);
    expect(await lastLedgerEntry(seeded.project.id, "mail.quarantine_release")).toMatchObject({ subject: m.id, actorType: "owner" });
    expect((await owner("GET", `/owner/quarantine?inbox_id=${mb.id}`)).body.messages).toEqual([]);

    const again = await owner("POST", `/owner/quarantine/${m.id}/release`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
  });

  it("gives blocked mail to the project address the email.received event it was kept from, attachments included", async () => {
    const project = await seedProject({ name: "Quarantine events" });
    await addEmailSource(project.actor);
    const address = await defaultMailbox(await getDb(), project.project.id);
    await addListEntry({ projectId: project.project.id, mailboxId: null, direction: "receive", type: "block", entry: "evil.example" });
    const rfc = `q-evt-${Date.now()}@evil.example`;
    await sendTo(listener.port, {
      from: "eve@evil.example",
      to: address.address,
      subject: "Invoice",
      text: "see attached",
      messageId: `<${rfc}>`,
      attachments: [{ filename: "invoice.txt", content: "total: 12" }],
    });
    const m = await messageByRfc(address.id, rfc);
    expect(m.eventId).toBeNull();
    expect(await latestEvents(project.project.id, "email.received")).toEqual([]);

    const res = await owner("POST", `/owner/quarantine/${m.id}/release`, project.project.id);
    expect(res.status).toBe(200);
    const [event] = await latestEvents(project.project.id, "email.received");
    expect(res.body.event_id).toBe(event.id);
    expect(event).toMatchObject({ trust: "external_untrusted", source: "email" });
    expect(event.payload).toMatchObject({ message_id: m.id, from: "eve@evil.example", subject: "Invoice", attachments: [{ name: "invoice.txt" }] });
    expect((await messageByRfc(address.id, rfc)).eventId).toBe(event.id);
    const copies = await (await getDb()).select().from(diskAttachments).where(eq(diskAttachments.eventId, event.id));
    expect(copies.map((c) => c.name)).toEqual(["invoice.txt"]);

    // Unauthenticated mail made its event on arrival: releasing it makes no second one.
    const rfc2 = `q-evt2-${Date.now()}@strict.example`;
    await sendTo(listener.port, { from: "ceo@strict.example", to: address.address, subject: "Wire", text: "now", messageId: `<${rfc2}>` });
    const u = await messageByRfc(address.id, rfc2);
    expect(u.eventId).not.toBeNull();
    expect((await owner("POST", `/owner/quarantine/${u.id}/release`, project.project.id)).body.event_id).toBeNull();
    expect(await latestEvents(project.project.id, "email.received")).toHaveLength(2);
  });

  it("keeps a thread's other quarantined message hidden and its label in the union", async () => {
    const mb = await addMailbox(seeded.project.id, "qmixed");
    const first = await messageByRfc(mb.id, await mail(mb.address, "ceo@strict.example", "Thread"));
    const id = `q-reply-${Date.now()}@strict.example`;
    await sendTo(listener.port, {
      from: "ceo@strict.example",
      to: mb.address,
      subject: "Re: Thread",
      text: "again",
      messageId: `<${id}>`,
      inReplyTo: `<${first.rfcMessageId}>`,
      references: [`<${first.rfcMessageId}>`],
    });
    const second = await messageByRfc(mb.id, id);
    expect(second.threadId).toBe(first.threadId);
    await owner("POST", `/owner/quarantine/${first.id}/release`);
    const thread = await threadOf(first.threadId);
    expect(thread.visibleAt?.toISOString()).toBe(first.msgAt.toISOString());
    expect(thread.labels).toEqual(["received", "unauthenticated", "unread"]);
    expect(thread.messageCount).toBe(2);
  });

  it("answers NOT_FOUND for another project's message and for an unknown id, and writes nothing", async () => {
    const theirs = await addMailbox(other.project.id, "qforeign");
    const m = await messageByRfc(theirs.id, await mail(theirs.address, "ceo@strict.example", "Theirs"));
    const db = await getDb();
    const snapshot = async () => ({
      message: await db.select(messageColumns).from(mailMessages).where(eq(mailMessages.id, m.id)),
      thread: await db.select().from(mailThreads).where(eq(mailThreads.id, m.threadId)),
      events: await db.select().from(mailEvents).where(eq(mailEvents.projectId, other.project.id)),
      ledger: await db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.projectId, seeded.project.id), eq(ledgerEntries.subject, m.id))),
    });
    const before = await snapshot();
    for (const method of ["POST", "DELETE"] as const) {
      const path = method === "POST" ? `/owner/quarantine/${m.id}/release` : `/owner/quarantine/${m.id}`;
      const res = await owner(method, path);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: "NOT_FOUND", message: `Message ${m.id} was not found.` });
    }
    const unknown = await owner("POST", "/owner/quarantine/msg_nope/release");
    expect(unknown.body.error).toMatchObject({ code: "NOT_FOUND", message: "Message msg_nope was not found." });
    expect(await snapshot()).toEqual(before);

    const bad = await owner("POST", "/owner/quarantine/evt_1/release");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(["message_id"]);
  });
});

describe("delete", () => {
  it("deletes the message and its raw bytes, rebuilds the thread, and removes a thread left empty", async () => {
    const mb = await addMailbox(seeded.project.id, "qdelete");
    const first = await messageByRfc(mb.id, await mail(mb.address, "friend@sender.example", "Keep"));
    const id = `q-del-${Date.now()}@strict.example`;
    await sendTo(listener.port, {
      from: "ceo@strict.example",
      to: mb.address,
      subject: "Re: Keep",
      text: "spoofed",
      messageId: `<${id}>`,
      inReplyTo: `<${first.rfcMessageId}>`,
    });
    const spoof = await messageByRfc(mb.id, id);
    expect(spoof.threadId).toBe(first.threadId);
    const store = await getBlobStore();
    expect(await store.head(spoof.rawBlobKey!)).not.toBeNull();

    const res = await owner("DELETE", `/owner/quarantine/${spoof.id}`);
    expect(res.body).toEqual({ id: spoof.id, inbox_id: mb.id, thread_id: first.threadId, thread_deleted: false });
    expect(await messageByRfc(mb.id, id)).toBeUndefined();
    const thread = await threadOf(first.threadId);
    expect(thread).toMatchObject({ messageCount: 1, lastMessageId: first.id, senders: ["friend@sender.example"], labels: ["received", "unread"] });
    expect(thread.visibleAt?.toISOString()).toBe(first.msgAt.toISOString());
    // The bytes go to the disk janitor's trash (freed once nothing points at them), as every message deletion does.
    const trashed = await (await getDb()).select({ k: diskTrash.blobKey }).from(diskTrash).where(eq(diskTrash.blobKey, spoof.rawBlobKey!));
    expect(trashed).toEqual([{ k: spoof.rawBlobKey }]);
    expect(await lastLedgerEntry(seeded.project.id, "mail.quarantine_delete")).toMatchObject({ subject: spoof.id });

    const refused = await owner("DELETE", `/owner/quarantine/${first.id}`);
    expect(refused.status).toBe(409);

    const alone = await messageByRfc(mb.id, await mail(mb.address, "ceo@strict.example", "Alone"));
    const gone = await owner("DELETE", `/owner/quarantine/${alone.id}`);
    expect(gone.body.thread_deleted).toBe(true);
    expect(await threadOf(alone.threadId)).toBeUndefined();
  });
});

describe("rejections", () => {
  it("lists SMTP refusals newest first and finds them by an address in MAIL FROM or RCPT", async () => {
    const db = await getDb();
    const off = await addMailbox(seeded.project.id, "qoff");
    await db.update(mailboxes).set({ status: "disabled" }).where(eq(mailboxes.id, off.id));
    const refuse = (from: string) =>
      expect(sendTo(listener.port, { envelope: { from, to: [off.address] }, from, to: off.address, subject: "x", text: "x" })).rejects.toMatchObject({
        responseCode: 550,
      });
    await refuse("first_one@sender.example");
    await refuse("second@sender.example");
    const rows = await waitFor(async () => {
      const r = await owner("GET", `/owner/rejections?inbox_id=${off.id}`);
      return r.body.rejections.length === 2 && r.body.rejections;
    });
    expect(rows[0]).toMatchObject({ inbox_id: off.id, remote_ip: "127.0.0.1", mail_from: "second@sender.example", rcpt: off.address, smtp_code: "550" });
    expect(rows[1].mail_from).toBe("first_one@sender.example");

    // `_` is a character, not a wildcard: "t_o" finds first_one only through the literal underscore.
    const found = await owner("GET", `/owner/rejections?q=${encodeURIComponent("T_ONE@")}`);
    expect(found.body.rejections.map((r: { mail_from: string }) => r.mail_from)).toEqual(["first_one@sender.example"]);
    const byRcpt = await owner("GET", `/owner/rejections?q=${encodeURIComponent(off.localPart)}`);
    expect(byRcpt.body.rejections).toHaveLength(2);
    expect((await owner("GET", `/owner/rejections?q=${encodeURIComponent(off.localPart)}`, other.project.id)).body.rejections).toEqual([]);

    const page = await owner("GET", `/owner/rejections?inbox_id=${off.id}&limit=1`);
    const next = await owner("GET", `/owner/rejections?inbox_id=${off.id}&limit=1&page_token=${page.body.next_page_token}`);
    expect(next.body.rejections.map((r: { id: string }) => r.id)).toEqual([rows[1].id]);

    const empty = await owner("GET", "/owner/rejections?q=");
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.map((d: { field: string }) => d.field)).toEqual(["q"]);
  });
});
