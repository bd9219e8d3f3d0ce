import { describe, expect, it } from "vitest";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { outboundSink } from "@/lib/mail/__tests__/outbound-sink";
import { forwardMessage } from "@/lib/tools/mailboxes/forward-message";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * Every line break of a body goes out as CRLF, so the bytes the relay gets are the bytes that were signed. A bare CR
 * (or a bare LF among CRLFs) was signed as it was, then nodemailer's SMTP stream wrote it as CRLF: DKIM failed at
 * the relay ("body hash did not verify"), for an agent's text and for an outsider's text quoted by forward_message
 * (found by helper-118).
 */
const { ctx, arrived, inbound, dkim } = outboundSink();

describe("line breaks in an outbound body", () => {
  it("send_message with a bare CR in its text, and bare LFs among CRLFs in its html, still DKIM-verifies", async () => {
    const out = await call(sendMessage, ctx.p.mcp, {
      inboxId: ctx.box.id,
      to: ["ann@example.com"],
      subject: "CR",
      text: "line one\rline two",
      html: "<p>one</p>\r\n<p>two</p>\n<p>three</p>\r",
    });
    await drainJobs();
    expect(await dkim(arrived(out.message_id))).toBe("pass");
  });

  it("forward_message of an outsider's mail whose text has a bare CR still DKIM-verifies", async () => {
    const original = await inbound({ text: "total\r42" });
    const out = await call(forwardMessage, ctx.p.mcp, { inboxId: ctx.box.id, messageId: original, to: ["ann@example.com"] });
    await drainJobs();
    expect(await dkim(arrived(out.message_id))).toBe("pass");
  });
});
