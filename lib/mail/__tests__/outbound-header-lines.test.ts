import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { longestLine, outboundSink } from "@/lib/mail/__tests__/outbound-sink";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call, refusedFields } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * RFC 5322 §2.1.1: a line is at most 998 characters, and relays that rewrap a longer one break the signature. A
 * subject or custom header of one 998-character word (the longest either takes) went out as a 999-character line,
 * since headers fold at spaces only (found by helper-118). Such a subject goes as encoded-words; such a header value
 * is refused.
 */
const { ctx, arrived, dkim } = outboundSink();

describe("header lines of a sent message", () => {
  it("a subject of one 998-character word folds within 998 and reads back whole", async () => {
    const subject = "s".repeat(998);
    const out = await call(sendMessage, ctx.p.mcp, { inboxId: ctx.box.id, to: ["ann@example.com"], subject, text: "t" });
    await drainJobs();
    const raw = arrived(out.message_id as string);
    expect(longestLine(raw)).toBeLessThanOrEqual(998);
    expect((await simpleParser(raw)).subject).toBe(subject);
    expect(await dkim(raw)).toBe("pass");
  });

  it("a subject of ordinary words is sent as written", async () => {
    const subject = `${"word ".repeat(190)}end`;
    const out = await call(sendMessage, ctx.p.mcp, { inboxId: ctx.box.id, to: ["ann@example.com"], subject, text: "t" });
    await drainJobs();
    const raw = arrived(out.message_id as string);
    expect(raw.toString("latin1")).not.toContain("=?UTF-8?");
    expect((await simpleParser(raw)).subject).toBe(subject);
  });

  it("a custom header value with 900 characters and no space is refused, naming the header", async () => {
    expect(
      await refusedFields(sendMessage, ctx.p.mcp, {
        inboxId: ctx.box.id,
        to: ["ann@example.com"],
        subject: "h",
        text: "t",
        headers: { "List-Id": "v".repeat(998) },
      }),
    ).toEqual(["headers.List-Id"]);
  });
});
