import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailMessages, mailQuota } from "@/lib/db/schema/mail";
import { env } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { dayPeriod } from "@/lib/mail/outbound/reserve-quota";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { replyToMessage } from "@/lib/tools/mailboxes/reply-to-message";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call, projectWithKey, refusal, refusedFields } from "./inbox-test-helpers";
import { relaySinkFixture } from "./relay-sink-fixture";
import { sendWrites } from "./send-writes";

/**
 * Recipients as a hostile or careless agent (or a hostile sender it replies to) sets them: an address named several
 * times is one recipient, for delivery and for the quota alike; a reply never goes to an address the relay's
 * envelope cannot carry as the message shows it; and errors name the field the caller can fix.
 */
const f = relaySinkFixture("Hostile recipients");

/** One inbound message to `box` with these extra header lines (From, Reply-To, Cc…), through the real inbound path. */
async function received(headerLines: string[]) {
  const raw = Buffer.from(
    [...headerLines, `To: ${f.box.address}`, "Subject: Hello", `Message-ID: <${Math.random().toString(36).slice(2)}@example.org>`, "", "Hi.", ""].join("\r\n"),
  );
  const [stored] = await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [f.box], remote: "local" });
  return stored.messageId;
}

describe("an address named more than once", () => {
  it("is one recipient: delivered once and counted once against the quota", async () => {
    const q = await projectWithKey("Quota once per recipient");
    const from = await seedMailbox(q.project.id);
    const dest = await seedMailbox(q.project.id);
    const db = await getDb();
    const day = dayPeriod(new Date());
    await db.insert(mailQuota).values({ projectId: q.project.id, period: day, used: env().EMAIL_DAILY_LIMIT - 1 });

    const out = await call(sendMessage, q.mcp, {
      inboxId: from.id,
      to: [dest.address, dest.address.toUpperCase()],
      cc: [dest.address],
      bcc: [dest.address],
      subject: "Once",
      text: "Only one copy.",
    });
    expect(out.send_status).toBe("queued");
    const [quota] = await db
      .select()
      .from(mailQuota)
      .where(and(eq(mailQuota.projectId, q.project.id), eq(mailQuota.period, day)));
    expect(quota.used).toBe(env().EMAIL_DAILY_LIMIT);
    await drainJobs();
    expect(await db.select().from(mailMessages).where(eq(mailMessages.mailboxId, dest.id))).toHaveLength(1);

    // The day is now used up: the next distinct recipient is refused.
    expect((await refusal(sendMessage, q.mcp, { inboxId: from.id, to: [dest.address], subject: "More", text: "t" })).code).toBe("QUOTA_EXCEEDED");
  });
});

describe("reply_to_message to addresses taken from the original", () => {
  it("refuses a Reply-To that is not a plain address (a quoted local part), naming to, and writes nothing", async () => {
    const id = await received(["From: Ada <ada@example.org>", 'Reply-To: "x@evil.example, y"@example.com, <victim@example.com>']);
    const before = await sendWrites(f.p.project.id);
    const err = await refusal(replyToMessage, f.p.mcp, { inboxId: f.box.id, messageId: id, text: "Thanks." });
    expect(err.code).toBe("validation_error");
    expect(err.details).toEqual([{ field: "to", message: expect.stringContaining("x@evil.example, y") }]);
    expect(await sendWrites(f.p.project.id)).toEqual(before);
    // A reply draft derives its recipients the same way, and is refused the same way.
    expect(await refusedFields(createDraft, f.p.mcp, { inboxId: f.box.id, inReplyTo: id, text: "Thanks." })).toEqual(["to"]);
    expect(await sendWrites(f.p.project.id)).toEqual(before);

    // Choosing the recipients is the fix the error gives, and it works.
    const out = await call(replyToMessage, f.p.mcp, { inboxId: f.box.id, messageId: id, to: ["victim@example.com"], text: "Thanks." });
    await drainJobs();
    const [sent] = f.sink.received.filter((m) => m.raw.toString().includes(out.message_id));
    expect(sent.to).toEqual(["victim@example.com"]);
  });

  it("refuses replyAll when the original's cc holds an address that is not plain (an IP literal), naming replyAll", async () => {
    const id = await received(["From: Ada <ada@example.org>", "Cc: bob@example.com, root@[127.0.0.1]"]);
    const before = await sendWrites(f.p.project.id);
    expect(await refusedFields(replyToMessage, f.p.mcp, { inboxId: f.box.id, messageId: id, replyAll: true, text: "All of you." })).toEqual(["replyAll"]);
    expect(await sendWrites(f.p.project.id)).toEqual(before);
    // Without replyAll the reply goes to Ada alone, which is fine.
    expect((await call(replyToMessage, f.p.mcp, { inboxId: f.box.id, messageId: id, text: "Just you." })).send_status).toBe("queued");
  });

  it("names to, not replyAll, when the original's own Reply-To lists more than 50 addresses", async () => {
    const many = Array.from({ length: 60 }, (_, i) => `r${i}@example.com`).join(", ");
    const id = await received(["From: Ada <ada@example.org>", `Reply-To: ${many}`]);
    const before = await sendWrites(f.p.project.id);
    const err = await refusal(replyToMessage, f.p.rest, { inbox_id: f.box.id, message_id: id, text: "Too many." });
    expect(err.code).toBe("validation_error");
    expect(err.details).toEqual([{ field: "to", message: expect.stringContaining("60 recipients") }]);
    expect(err.fix).not.toMatch(/replyAll/);
    expect(await sendWrites(f.p.project.id)).toEqual(before);
  });
  it("a reply draft is held to the same 50: derived from a long Reply-To (naming to) or by replyAll (naming replyAll), nothing saved", async () => {
    const many = Array.from({ length: 60 }, (_, i) => `r${i}@example.com`).join(", ");
    const crowdedReplyTo = await received(["From: Ada <ada@example.org>", `Reply-To: ${many}`]);
    const crowdedCc = await received(["From: Ada <ada@example.org>", `Cc: ${many}`]);
    const before = await sendWrites(f.p.project.id);
    const viaReplyTo = await refusal(createDraft, f.p.mcp, { inboxId: f.box.id, inReplyTo: crowdedReplyTo, text: "Too many." });
    expect(viaReplyTo.code).toBe("validation_error");
    expect(viaReplyTo.details).toEqual([{ field: "to", message: expect.stringContaining("60 recipients") }]);
    const viaReplyAll = await refusal(createDraft, f.p.rest, { inbox_id: f.box.id, in_reply_to: crowdedCc, reply_all: true, text: "All of you." });
    expect(viaReplyAll.details).toEqual([{ field: "reply_all", message: expect.stringContaining("61 recipients") }]);
    expect(await sendWrites(f.p.project.id)).toEqual(before);
    // Without replyAll the draft answers Ada alone, which is fine.
    expect((await call(createDraft, f.p.mcp, { inboxId: f.box.id, inReplyTo: crowdedCc, text: "Just you." })).to).toEqual(["ada@example.org"]);
  });
});
