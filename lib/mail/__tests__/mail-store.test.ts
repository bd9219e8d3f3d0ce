import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { onMailEvents, type MailEventChange } from "@/lib/mail/events/mail-events-channel";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { lastActivity } from "@/components/mailboxes/owner-mail-reads";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver, sendTo, waitFor } from "@/lib/mail/__tests__/helpers";
import { addMailbox, mailEventsOf, messageByRfc, messagesOf, queueSent, threadOf } from "@/lib/mail/__tests__/mail-store-helpers";
import { gmailHtml, gmailText, outlookHtml } from "@/lib/mail/__tests__/reply-fixtures";

/** The mail store behind the mailbox tools, through the real listener: threading, extraction, summary, outbox. */
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  seeded = await seedProject({ name: "Mail store" });
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    resolver: fakeResolver({ "sender.example": "v=spf1 ip4:127.0.0.1 -all", "other.example": "v=spf1 ip4:127.0.0.1 -all" }),
    onError: (err) => console.error(err),
  });
});
afterAll(async () => {
  await listener.close();
});

const mailbox = (local: string) => addMailbox(seeded.project.id, local);

describe("threading", () => {
  it("starts a new thread for a reply that cites another thread's Message-ID under a different subject", async () => {
    const mb = await mailbox("graft");
    await sendTo(listener.port, { from: "alice@sender.example", to: mb.address, subject: "Original plan", text: "v1", messageId: "<orig-1@sender.example>" });
    await sendTo(listener.port, {
      from: "mallory@other.example",
      to: mb.address,
      subject: "Buy cheap watches",
      text: "spam",
      messageId: "<graft-1@other.example>",
      inReplyTo: "<orig-1@sender.example>",
      references: ["<orig-1@sender.example>"],
    });
    await sendTo(listener.port, {
      from: "bob@sender.example",
      to: mb.address,
      subject: "RE: [team] Fwd: original   PLAN",
      text: "agreed",
      messageId: "<reply-1@sender.example>",
      inReplyTo: "<orig-1@sender.example>",
      references: ["<orig-1@sender.example>"],
    });
    const orig = await messageByRfc(mb.id, "orig-1@sender.example");
    const graft = await messageByRfc(mb.id, "graft-1@other.example");
    const reply = await messageByRfc(mb.id, "reply-1@sender.example");
    expect(graft.threadId).not.toBe(orig.threadId);
    expect(reply.threadId).toBe(orig.threadId);
    expect(reply.inReplyToMessageId).toBe(orig.id);
    // The graft still records what it claims to answer: the id is ours, only the thread is refused.
    expect(graft.inReplyToMessageId).toBe(orig.id);
    expect((await threadOf(orig.threadId)).baseSubject).toBe("original plan");
  });

  it("puts a parent that arrives after its reply into the reply's thread (References, or only In-Reply-To)", async () => {
    const mb = await mailbox("adopt");
    await sendTo(listener.port, {
      from: "bob@sender.example",
      to: mb.address,
      subject: "Re: Offsite",
      text: "count me in",
      messageId: "<child-1@sender.example>",
      inReplyTo: "<parent-1@sender.example>",
      references: ["<parent-1@sender.example>"],
    });
    await sendTo(listener.port, {
      from: "alice@sender.example",
      to: mb.address,
      subject: "Offsite",
      text: "who comes?",
      messageId: "<parent-1@sender.example>",
    });
    const child = await messageByRfc(mb.id, "child-1@sender.example");
    const parent = await messageByRfc(mb.id, "parent-1@sender.example");
    expect(parent.threadId).toBe(child.threadId);
    const thread = await threadOf(child.threadId);
    expect(thread.messageCount).toBe(2);
    expect(thread.lastMessageId).toBe(parent.id);

    // A reply whose client set only In-Reply-To (raw, so nothing adds References).
    const raw = [
      "From: bob@sender.example",
      `To: ${mb.address}`,
      "Subject: Re: Budget",
      "Message-ID: <child-2@sender.example>",
      "In-Reply-To: <parent-2@sender.example>",
      "",
      "fine by me",
      "",
    ].join("\r\n");
    await sendTo(listener.port, { envelope: { from: "bob@sender.example", to: [mb.address] }, raw });
    await sendTo(listener.port, { from: "alice@sender.example", to: mb.address, subject: "Budget", text: "ok?", messageId: "<parent-2@sender.example>" });
    const child2 = await messageByRfc(mb.id, "child-2@sender.example");
    expect(child2.references).toEqual(["parent-2@sender.example"]);
    expect((await messageByRfc(mb.id, "parent-2@sender.example")).threadId).toBe(child2.threadId);

    // A "parent" under another subject is not adopted.
    await sendTo(listener.port, { from: "bob@sender.example", to: mb.address, subject: "Re: Lunch", text: "yes", references: ["<parent-3@sender.example>"] });
    await sendTo(listener.port, { from: "eve@other.example", to: mb.address, subject: "Invoice", text: "pay", messageId: "<parent-3@sender.example>" });
    const rows = await messagesOf(mb.id);
    expect(rows.at(-1)!.threadId).not.toBe(rows.at(-2)!.threadId);
  });

  it("stores an injected Message-ID, In-Reply-To and References sanitized", async () => {
    const mb = await mailbox("inject");
    const raw = [
      "From: mallory@other.example",
      `To: ${mb.address}`,
      "Subject: Injected",
      "Message-ID: <x>",
      " Bcc: y@evil>",
      "In-Reply-To: <a>",
      " Bcc: y@evil>",
      "References: <ok-1@other.example> <x>",
      " Bcc: y@evil>",
      "",
      "body",
      "",
    ].join("\r\n");
    await sendTo(listener.port, { envelope: { from: "mallory@other.example", to: [mb.address] }, raw });
    const [row] = await messagesOf(mb.id);
    expect(row.subject).toBe("Injected");
    // The injected id is dropped whole; the message gets one made from its bytes instead.
    expect(row.rfcMessageId).toMatch(/^[0-9a-f]{40}@no-message-id\.invalid$/);
    // In-Reply-To may list several ids: the first clean one is kept, the rest of the line never is.
    expect(row.inReplyTo).toBe("a");
    expect(row.references).toEqual(["ok-1@other.example", "x", "a"]);
  });

  it("stores a message once when copies of it arrive together, over several connections", async () => {
    const mb = await mailbox("together");
    const copy = () =>
      sendTo(listener.port, { from: "dave@sender.example", to: mb.address, subject: "Once", text: "only once", messageId: "<together-1@sender.example>" });
    // Before: each copy passed the duplicate check before any committed: three messages, three threads.
    await Promise.all([copy(), copy(), copy()]);
    const rows = await messagesOf(mb.id);
    expect(rows.map((r) => r.rfcMessageId)).toEqual(["together-1@sender.example"]);
    expect((await mailEventsOf(rows[0].id)).map((e) => e.type)).toEqual(["message.received"]);
  });

  it("stores mail without a Message-ID once, however often it is redelivered, in every project it was sent to", async () => {
    const other = await seedProject({ name: "Mail store, second project" });
    const here = await mailbox("no-id");
    const there = await addMailbox(other.project.id, "no-id-too");
    const raw = (subject: string) =>
      [
        "From: carol@sender.example",
        `To: ${here.address}, ${there.address}`,
        `Subject: ${subject}`,
        "Date: Tue, 1 Dec 2026 10:00:00 +0000",
        "",
        "No id here.",
        "",
      ].join("\r\n");
    const deliver = (subject: string) =>
      sendTo(listener.port, { envelope: { from: "carol@sender.example", to: [here.address, there.address] }, raw: raw(subject) });
    // A sender retrying (its 250 lost, or one project's commit failed) sends the same bytes again.
    await deliver("Quarterly numbers");
    await deliver("Quarterly numbers");
    // Other bytes are another message, though they lack an id too.
    await deliver("Quarterly numbers, corrected");
    for (const mb of [here, there]) {
      const rows = await messagesOf(mb.id);
      expect(rows.map((r) => r.subject)).toEqual(["Quarterly numbers", "Quarterly numbers, corrected"]);
      expect(rows[0].rfcMessageId).not.toBe(rows[1].rfcMessageId);
    }
    expect((await messagesOf(here.id))[0].rfcMessageId).toBe((await messagesOf(there.id))[0].rfcMessageId);
  });

  it("joins a reply to one of our own sent messages to its thread whatever the subject, and sets in_reply_to_message_id", async () => {
    const mb = await mailbox("ours");
    const [sent] = await queueSent(mb, { to: ["dave@sender.example"], subject: "Your order", text: "It ships tomorrow." });
    const [out] = await messagesOf(mb.id);
    await sendTo(listener.port, {
      from: "dave@sender.example",
      to: mb.address,
      subject: "question about shipping",
      text: "when exactly?",
      messageId: "<dave-1@sender.example>",
      inReplyTo: `<${out.rfcMessageId}>`,
    });
    const reply = await messageByRfc(mb.id, "dave-1@sender.example");
    expect(reply.threadId).toBe(out.threadId);
    expect(reply.inReplyToMessageId).toBe(sent.id);
  });
});

describe("extraction, labels, summary and events", () => {
  it("stores the extracted Gmail reply, its preview and labels; and an Outlook HTML reply cut at its quote", async () => {
    const mb = await mailbox("extract");
    await sendTo(listener.port, {
      from: "alice@sender.example",
      to: mb.address,
      subject: "Re: Meeting",
      text: gmailText,
      html: gmailHtml,
      messageId: "<gm-1@sender.example>",
    });
    const gm = await messageByRfc(mb.id, "gm-1@sender.example");
    expect(gm.extractedText).toBe("Thursday at 2pm works for me.");
    expect(gm.extractedText).not.toContain("wrote:");
    expect(gm.extractedHtml).toBe('<div dir="ltr">Thursday at <b>2pm</b> works for me.</div><br>');
    expect(gm.preview).toBe("Thursday at 2pm works for me.");
    expect(gm.text).toBe(gmailText);
    expect(gm.labels).toEqual(["received", "unread"]);
    expect(gm.category).toBe("normal");

    await sendTo(listener.port, { from: "bob@sender.example", to: mb.address, subject: "RE: Contract", html: outlookHtml, messageId: "<ol-1@sender.example>" });
    const ol = await messageByRfc(mb.id, "ol-1@sender.example");
    expect(ol.extractedHtml).toContain("Yes, send the contract &amp; the invoice.");
    expect(ol.extractedHtml).not.toContain("secret");
    expect(ol.extractedHtml!.endsWith("</div></body></html>")).toBe(true);
    expect(ol.preview).toMatch(/^Yes, send the contract & the invoice\./);

    // Automatic mail is kept whole.
    await sendTo(listener.port, {
      from: "robot@sender.example",
      to: mb.address,
      subject: "Auto: away",
      text: gmailText,
      headers: { "Auto-Submitted": "auto-replied" },
      messageId: "<auto-1@sender.example>",
    });
    const auto = await messageByRfc(mb.id, "auto-1@sender.example");
    expect(auto.extractedText).toBe(auto.text);
    expect(auto.extractedText).toContain("wrote:");
  });

  it("keeps the thread summary: counts, newest message, participants, sizes, attachments, labels, visibility; and the mailbox's activity", async () => {
    const mb = await mailbox("summary");
    await sendTo(listener.port, {
      from: "Alice <Alice@Sender.example>",
      to: mb.address,
      cc: "carol@elsewhere.example",
      subject: "Kickoff",
      text: "first",
      messageId: "<sum-1@sender.example>",
      attachments: [{ filename: "a.txt", content: "aaa" }],
    });
    await sendTo(listener.port, {
      from: "bob@sender.example",
      to: [mb.address, "alice@sender.example"],
      subject: "Re: Kickoff",
      text: "second   message\n\nwith lines",
      messageId: "<sum-2@sender.example>",
      references: ["<sum-1@sender.example>"],
      attachments: [
        { filename: "b.txt", content: "b" },
        { filename: "c.txt", content: "c" },
      ],
    });
    const first = await messageByRfc(mb.id, "sum-1@sender.example");
    const second = await messageByRfc(mb.id, "sum-2@sender.example");
    expect(second.threadId).toBe(first.threadId);
    expect(second.msgAt.getTime()).toBeGreaterThanOrEqual(first.msgAt.getTime());
    const t = await threadOf(first.threadId);
    expect(t).toMatchObject({
      messageCount: 2,
      lastMessageId: second.id,
      preview: "second message with lines",
      senders: ["alice@sender.example", "bob@sender.example"],
      recipients: [mb.address, "carol@elsewhere.example", "alice@sender.example"],
      sizeBytes: first.sizeBytes + second.sizeBytes,
      attachmentCount: 3,
      labels: ["received", "unread"],
      lastSentAt: null,
    });
    expect(t.lastMessageAt).toEqual(second.msgAt);
    expect(t.lastReceivedAt).toEqual(second.msgAt);
    expect(t.visibleAt).toEqual(second.msgAt);
    expect((await lastActivity(await getDb(), seeded.project.id, [mb.id])).get(mb.id)).toEqual(second.msgAt);
  });

  it("gives email_send rows the sent label, send_status, msg_at, preview and a thread summary", async () => {
    const mb = await mailbox("outbound");
    const db = await getDb();
    await queueSent(mb, {
      to: ["x@sender.example", "y@sender.example"],
      subject: "Re: Weekly   report",
      text: "All green.\n\nOn Mon, Alice wrote:\n> status?",
    });
    const rows = await messagesOf(mb.id);
    expect(rows).toHaveLength(2);
    for (const m of rows) {
      expect(m).toMatchObject({ labels: ["sent"], sendStatus: "queued", preview: "All green.", extractedText: "All green.", category: "normal" });
      const t = await threadOf(m.threadId);
      expect(t).toMatchObject({ messageCount: 1, lastMessageId: m.id, preview: "All green.", senders: [mb.address], recipients: m.to, labels: ["sent"] });
      expect(t.baseSubject).toBe("weekly report");
      expect(t.lastSentAt).toEqual(m.msgAt);
      expect(t.visibleAt).toEqual(m.msgAt);
      expect(t.lastReceivedAt).toBeNull();
    }
    const pending = await queueSent(mb, { to: ["z@sender.example"], subject: "Held", text: "wait", status: "pending" });
    const held = (await messagesOf(mb.id)).find((m) => m.id === pending[0].id)!;
    expect(held).toMatchObject({ labels: ["pending_approval"], sendStatus: "pending_approval" });
    expect((await lastActivity(db, seeded.project.id, [mb.id])).get(mb.id)).toEqual(held.msgAt);
  });

  it("writes one message.received outbox row per message, with a summary and no body, and tells listeners after commit", async () => {
    const mb = await mailbox("events");
    const notices: MailEventChange[] = [];
    const stop = await onMailEvents((c) => notices.push(c));
    try {
      await sendTo(listener.port, {
        from: "alice@sender.example",
        to: mb.address,
        subject: "Hello",
        text: "a body that stays out of events",
        messageId: "<ev-1@sender.example>",
      });
      const m = await messageByRfc(mb.id, "ev-1@sender.example");
      const events = await mailEventsOf(m.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ projectId: seeded.project.id, mailboxId: mb.id, type: "message.received", threadId: m.threadId });
      expect(events[0].id).toMatch(/^mev_/);
      expect(events[0].summary).toEqual({
        from: "alice@sender.example",
        to: [mb.address],
        subject: "Hello",
        preview: "a body that stays out of events",
        labels: ["received", "unread"],
      });
      await waitFor(async () => notices.some((n) => n.project === seeded.project.id && n.mailbox === mb.id));
    } finally {
      stop();
    }
  });
});
