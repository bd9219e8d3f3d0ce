import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { longestLine, outboundSink } from "@/lib/mail/__tests__/outbound-sink";
import { forwardMessage } from "@/lib/tools/mailboxes/forward-message";
import { getMessage } from "@/lib/tools/mailboxes/get-message";
import { call } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * forward_message re-attaches the original's files as they came. An attached message (message/rfc822, an .eml) goes
 * as a base64 attachment: it went out inline and 8bit as it was, so the recipient got no file but its headers and
 * body inside the forward's text, with lines longer than RFC 5322's 998 characters (relays refuse or rewrap them).
 * An inline image keeps its Content-ID: it went out without one, and the forwarded HTML's cid: link broke. Both
 * found by helper-118.
 */
const { ctx, arrived, inbound } = outboundSink();
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

describe("forward_message and the original's files", () => {
  it("keeps an inline image's Content-ID, so the forwarded HTML's cid: reference still resolves", async () => {
    const original = await inbound({ html: '<p>logo <img src="cid:logo@x"></p>', attachments: [{ filename: "logo.png", content: PNG, cid: "logo@x" }] });
    const out = await call(forwardMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: original, to: ["bob@example.com"] });
    await drainJobs();
    const parsed = await simpleParser(arrived(out.message_id), { skipImageLinks: true });
    expect(String(parsed.html)).toContain('src="cid:logo@x"');
    expect(parsed.attachments.map((a) => [a.filename, a.cid, a.contentDisposition])).toEqual([["logo.png", "logo@x", "inline"]]);
  });

  it("delivers an attached .eml (message/rfc822) as an attachment, as get_message says it was sent", async () => {
    const eml = Buffer.from("From: x@y.com\r\nSubject: inner\r\n\r\ninner body\r\n");
    const original = await inbound({ attachments: [{ filename: "fwd.eml", content: eml, contentType: "message/rfc822", contentDisposition: "attachment" }] });
    const out = await call(forwardMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: original, to: ["bob@example.com"] });
    await drainJobs();
    const sent = await call(getMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: out.message_id });
    expect(sent.attachments.map((a: { filename: string }) => a.filename)).toEqual(["fwd.eml"]);
    const parsed = await simpleParser(arrived(out.message_id));
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([["fwd.eml", "message/rfc822"]]);
    expect(parsed.attachments[0].content.toString()).toBe(eml.toString());
    expect(parsed.text).not.toContain("inner body");
  });

  it("keeps every line within 998 characters when the attached message holds a longer one", async () => {
    const eml = Buffer.from(`From: x@y.com\r\nSubject: inner\r\n\r\n${"y".repeat(5000)}\r\n`);
    const original = await inbound({ attachments: [{ filename: "fwd.eml", content: eml, contentType: "message/rfc822", contentDisposition: "attachment" }] });
    const out = await call(forwardMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: original, to: ["bob@example.com"] });
    await drainJobs();
    expect(longestLine(arrived(out.message_id))).toBeLessThanOrEqual(998);
  });
});
