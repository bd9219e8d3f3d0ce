import { describe, expect, it } from "vitest";
import type { MailDraft } from "@/lib/db/schema/mail-send";
import { describeDraft } from "@/lib/mail/drafts/draft-action";
import { describeSend } from "@/lib/mail/send/describe-send";
import { wellFormed } from "@/lib/text/well-formed";

describe("describeSend", () => {
  it("cuts the summary, the body and the details on whole characters, never inside an emoji", () => {
    // "Send “" is 6 units: the subject's emoji starts at unit 299 of the summary, the body's at unit 2,499.
    const subject = `${"s".repeat(293)}😀 and more`;
    const body = `${"b".repeat(2499)}😀 tail ${"t".repeat(100)}`;
    const out = describeSend({ subject, recipients: ["a@example.org"], lines: [`Subject: ${subject}`], body });
    // Before: each was cut with String.slice, leaving a lone surrogate stored as U+FFFD.
    expect(wellFormed(out.summary) && wellFormed(out.details)).toBe(true);
    expect(out.summary).toBe(`Send “${"s".repeat(293)}`);
    expect(out.details.endsWith(`${"b".repeat(2499)}…`)).toBe(true);
    const long = describeSend({ subject: "x", recipients: ["a@example.org", "b@example.org"], lines: ["L".repeat(3999)], body: "😀" });
    expect(long).toEqual({ summary: "Send “x” to 2 recipients?", details: `${"L".repeat(3999)}\n` });
  });

  it("describes a held draft from its fields", () => {
    const draft = { id: "drf_x", to: ["a@example.org"], cc: ["c@example.org"], bcc: [], subject: null, text: null } as unknown as MailDraft;
    expect(describeDraft(draft, [{ name: "a.pdf", sizeBytes: 3 }])).toEqual({
      summary: "Send “(no subject)” to 2 recipients?",
      details: "From draft drf_x\nTo: a@example.org\nCc: c@example.org\nSubject: \nAttachments: a.pdf (3 bytes)\n\n(HTML only)",
    });
  });
});
