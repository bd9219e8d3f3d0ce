import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { longestLine, outboundSink } from "@/lib/mail/__tests__/outbound-sink";
import { forwardSubject } from "@/lib/mail/send/forward-request";
import { replySubject } from "@/lib/mail/send/reply-request";
import { getMessage } from "@/lib/tools/mailboxes/get-message";
import { replyToMessage } from "@/lib/tools/mailboxes/reply-to-message";
import { SEND_SUBJECT_MAX_CHARS } from "@/lib/tools/mailboxes/send-fields";
import { call } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * A subject derived from an outsider's (Re: …, Fwd: …) meets the rule an agent's own subject meets: one line, control
 * characters as spaces, at most SEND_SUBJECT_MAX_CHARS. An encoded-word subject decoding to CR LF was stored as
 * "Re: a\r\nBcc: x@y.com" while the recipient got it flattened; and a 3000-character word went out uncapped as a
 * 2001-character header line (found by helper-118).
 */
const { ctx, arrived, inbound } = outboundSink();
const from = (id: string, subject: string) =>
  Buffer.from(`From: ada@example.org\r\nTo: ${ctx.box.address}\r\nMessage-ID: <${id}@example.org>\r\nSubject: ${subject}\r\n\r\nhello\r\n`);

describe("a derived subject", () => {
  it("is one line, and what get_message shows is what was sent", async () => {
    const original = await inbound(from("crlf-subject", "=?UTF-8?Q?a=0D=0ABcc:_x@y.com?="));
    const out = await call(replyToMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: original, text: "r" });
    await drainJobs();
    const sent = await call(getMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: out.message_id });
    expect(sent.subject).toBe("Re: a Bcc: x@y.com");
    expect((await simpleParser(arrived(out.message_id))).subject).toBe(sent.subject);
  });

  it("of one 3000-character word is capped, and no line of the reply is longer than 998 characters", async () => {
    const original = await inbound(from("long-subject", "z".repeat(3000)));
    const out = await call(replyToMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: original, text: "r" });
    await drainJobs();
    const sent = await call(getMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: out.message_id });
    expect(sent.subject).toHaveLength(SEND_SUBJECT_MAX_CHARS);
    expect(longestLine(arrived(out.message_id))).toBeLessThanOrEqual(998);
  });

  it("collapses control characters and never cuts a character in half", () => {
    expect(forwardSubject("a\u0000\u0007b\tc\u007f")).toBe("Fwd: a b\tc");
    expect(replySubject("RE: x\r\n\r\ny")).toBe("RE: x y");
    const emoji = replySubject(`${"x".repeat(SEND_SUBJECT_MAX_CHARS - 5)}😀`);
    expect(emoji).toBe(`Re: ${"x".repeat(SEND_SUBJECT_MAX_CHARS - 5)}`);
  });
});
