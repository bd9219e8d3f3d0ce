import MailComposer from "nodemailer/lib/mail-composer";
import { and, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailAttachments, mailboxes, mailMessages, type Mailbox } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { allScopes } from "@/lib/keys/scopes";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { startSink } from "@/lib/mail/__tests__/helpers";
import { forwardMessage } from "@/lib/tools/mailboxes/forward-message";
import { replyToMessage } from "@/lib/tools/mailboxes/reply-to-message";
import { call, projectWithKey, refusal, refusedFields, restrictedKey } from "./inbox-test-helpers";
import { sendWrites } from "./send-writes";

/** reply_to_message and forward_message through the one send path, to a relay sink and to mailboxes on this instance. */
let sink: Awaited<ReturnType<typeof startSink>>;
let p: Awaited<ReturnType<typeof projectWithKey>>;
let box: Mailbox;
let mail: MailFixture;
let thread: MailFixture;

const row = async (id: string) => (await (await getDb()).select().from(mailMessages).where(eq(mailMessages.id, id)))[0];
const rfcOf = async (id: string) => (await row(id)).rfcMessageId!;

/** An inbound message to the box from Ada, to the box and Bob, with Carol and the box itself in cc. */
async function receiveGroupMail(mailbox: Mailbox) {
  const raw = await new MailComposer({
    from: "Ada <ada@example.org>",
    to: [mailbox.address, "bob@example.com"],
    cc: ["Carol@Example.com", mailbox.address.toUpperCase()],
    subject: "Team lunch",
    text: "Friday?",
  })
    .compile()
    .build();
  const [stored] = await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [mailbox], remote: "local" });
  return stored.messageId;
}

beforeAll(async () => {
  sink = await startSink();
  process.env.SMTP_RELAY_URL = sink.url;
  resetEnvCache();
  p = await projectWithKey("Reply and forward");
  box = await seedMailbox(p.project.id);
  mail = await seedReceivedMail(p.project.id, box.id);
  thread = mail;
});
afterAll(async () => {
  closeRelayTransports();
  await sink.close();
  delete process.env.SMTP_RELAY_URL;
  resetEnvCache();
});

describe("reply_to_message", () => {
  it("replies in the original's thread, to its sender, with Re:, In-Reply-To and References", async () => {
    const out = await call(replyToMessage, p.mcp, { inboxId: box.id, messageId: mail.message, text: "Thanks, got them." });
    expect(out).toMatchObject({ thread_id: thread.thread, send_status: "queued" });
    const reply = await row(out.message_id);
    const original = await rfcOf(mail.message);
    expect(reply).toMatchObject({
      threadId: mail.thread,
      subject: "Re: Quarterly numbers",
      to: ["ada@example.org"],
      cc: [],
      inReplyTo: original,
      inReplyToMessageId: mail.message,
    });
    expect(reply.references.at(-1)).toBe(original);

    // A reply to our own reply: still one "Re:", back to the same recipient, References grows by one.
    const again = await call(replyToMessage, p.rest, { inbox_id: box.address, message_id: `<${reply.rfcMessageId}>`, text: "One more thing." });
    const second = await row(again.message_id);
    expect(second).toMatchObject({ threadId: mail.thread, subject: "Re: Quarterly numbers", to: ["ada@example.org"], inReplyTo: reply.rfcMessageId });
    expect(second.references).toEqual([...reply.references, reply.rfcMessageId]);

    await drainJobs();
    const got = sink.received.find((m) => m.raw.toString().includes("One more thing."))!;
    expect(got.to).toEqual(["ada@example.org"]);
    const parsed = await simpleParser(got.raw);
    expect(parsed.inReplyTo).toBe(`<${reply.rfcMessageId}>`);
    expect(parsed.subject).toBe("Re: Quarterly numbers");
  });

  it("replays an idempotencyKey (MCP) as the Idempotency-Key space shared with REST, and refuses another body", async () => {
    const args = { inboxId: box.id, messageId: mail.message, text: "Once only.", idempotencyKey: "reply-once" };
    const first = await call(replyToMessage, p.mcp, args);
    const before = await sendWrites(p.project.id);
    expect(await call(replyToMessage, p.rest, { inbox_id: box.id, message_id: mail.message, text: "Once only.", idempotency_key: "reply-once" })).toEqual(
      first,
    );
    expect((await refusal(replyToMessage, p.mcp, { ...args, text: "Twice?" })).code).toBe("CONFLICT");
    expect(await sendWrites(p.project.id)).toEqual(before);
  });

  it("replyAll copies the original's to and cc, without this inbox's own address", async () => {
    const id = await receiveGroupMail(box);
    const out = await call(replyToMessage, p.mcp, { inboxId: box.id, messageId: id, replyAll: true, text: "Friday works." });
    expect(await row(out.message_id)).toMatchObject({ to: ["ada@example.org"], cc: ["bob@example.com", "Carol@example.com"], bcc: [] });
  });

  it("refuses replyAll with to, cc or bcc, naming replyAll in the caller's casing, and writes nothing", async () => {
    const before = await sendWrites(p.project.id);
    expect(await refusedFields(replyToMessage, p.mcp, { inboxId: box.id, messageId: mail.message, replyAll: true, to: ["x@example.com"], text: "t" })).toEqual([
      "replyAll",
    ]);
    expect(
      await refusedFields(replyToMessage, p.rest, { inbox_id: box.id, message_id: mail.message, reply_all: true, bcc: ["x@example.com"], text: "t" }),
    ).toEqual(["reply_all"]);
    expect(await refusedFields(replyToMessage, p.mcp, { inboxId: box.id, messageId: mail.message })).toEqual(["text"]);
    expect(await sendWrites(p.project.id)).toEqual(before);
  });

  it("answers NOT_FOUND, never a new thread, for a message of another inbox or an unknown Message-ID", async () => {
    const other = await seedMailbox(p.project.id);
    const elsewhere = await seedReceivedMail(p.project.id, other.id);
    const before = await sendWrites(p.project.id);
    for (const messageId of [elsewhere.message, `<${await rfcOf(elsewhere.message)}>`, "<nobody@nowhere.example>", "msg_doesnotexist"]) {
      const err = await refusal(replyToMessage, p.mcp, { inboxId: box.id, messageId, text: "Hello?" });
      expect(err.code, messageId).toBe("NOT_FOUND");
    }
    expect(await sendWrites(p.project.id)).toEqual(before);
  });

  it("needs message_read besides message_reply", async () => {
    const key = await restrictedKey(
      p.project.id,
      p.project.name,
      box.id,
      allScopes.filter((s) => s !== "message_read"),
    );
    const err = await refusal(replyToMessage, key.mcp, { inboxId: box.id, messageId: mail.message, text: "Hi" });
    expect(err.code).toBe("missing_permission");
    expect(err.message).toContain("message_read");
  });

  it("holds the reply as a draft in the original's thread when the inbox needs approval", async () => {
    const held = await seedMailbox(p.project.id);
    const original = await seedReceivedMail(p.project.id, held.id);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, held.id));
    const err = await refusal(replyToMessage, p.mcp, { inboxId: held.id, messageId: original.message, text: "Wait for it" });
    expect(err.code).toBe("approval_required");
    const draftId = (err.details as { draft_id: string }).draft_id;
    expect(err.fix).toContain(draftId);
    const [draft] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, draftId));
    expect(draft).toMatchObject({ kind: "reply", threadId: original.thread, inReplyToMessageId: original.message, sendStatus: "pending_approval" });
  });
});

describe("forward_message", () => {
  it("needs to", async () => {
    const before = await sendWrites(p.project.id);
    expect(await refusedFields(forwardMessage, p.mcp, { inboxId: box.id, messageId: mail.message, cc: ["x@example.com"], text: "FYI" })).toEqual(["to"]);
    expect(await sendWrites(p.project.id)).toEqual(before);
  });

  it("forwards in a new thread with Fwd:, the quoted original and its attachments by reference (no copy)", async () => {
    const out = await call(forwardMessage, p.mcp, { inboxId: box.id, messageId: mail.message, to: ["dora@example.net"], text: "See below." });
    expect(out.thread_id).not.toBe(mail.thread);
    const fwd = await row(out.message_id);
    expect(fwd).toMatchObject({ subject: "Fwd: Quarterly numbers", to: ["dora@example.net"], inReplyTo: null });
    expect(fwd.text).toMatch(/^See below\.\n\n---------- Forwarded message ---------\nFrom: Ada <ada@example\.org>/);
    expect(fwd.text).toContain("The numbers are attached.");
    const db = await getDb();
    const files = async (messageId: string) =>
      db
        .select({ name: mailAttachments.name, blobKey: mailAttachments.blobKey, size: mailAttachments.sizeBytes })
        .from(mailAttachments)
        .where(and(eq(mailAttachments.projectId, p.project.id), eq(mailAttachments.messageId, messageId)));
    expect(await files(out.message_id)).toEqual(await files(mail.message));

    await drainJobs();
    const got = sink.received.find((m) => m.to.includes("dora@example.net"))!;
    const parsed = await simpleParser(got.raw);
    expect(parsed.subject).toBe("Fwd: Quarterly numbers");
    expect(parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([["q3.csv", "quarter,revenue\nq3,42\n"]]);
    expect((await row(out.message_id)).status).toBe("sent");
  });

  it("delivers a forward to an inbox on this instance, and keeps a subject given", async () => {
    const to = await seedMailbox(p.project.id);
    const out = await call(forwardMessage, p.rest, {
      inbox_id: box.id,
      message_id: mail.message,
      to: [to.address],
      subject: "Numbers for you",
      html: "<p>FYI</p>",
    });
    await drainJobs();
    const db = await getDb();
    const [arrived] = await db.select().from(mailMessages).where(eq(mailMessages.mailboxId, to.id));
    expect(arrived).toMatchObject({ subject: "Numbers for you", direction: "inbound" });
    const files = await db.select({ name: mailAttachments.name }).from(mailAttachments).where(eq(mailAttachments.messageId, arrived.id));
    expect(files).toEqual([{ name: "q3.csv" }]);
    expect(arrived.html).toContain("<blockquote>");
    expect((await row(out.message_id)).status).toBe("sent");
  });

  it("answers NOT_FOUND for a message the inbox does not hold", async () => {
    const err = await refusal(forwardMessage, p.mcp, { inboxId: box.id, messageId: "<nobody@nowhere.example>", to: ["x@example.com"] });
    expect(err.code).toBe("NOT_FOUND");
  });
});
