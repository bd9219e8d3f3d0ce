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
    expect(out.details.endsWith(`${"b".repeat(2499)}… [108 more characters of the body not shown]`)).toBe(true);
  });

  // Found by helper-106: cut as one text, 25 recipients of 200 characters filled the details, and the last recipient,
  // the subject and the body went unseen by the approver, with nothing saying so; all 25 would go out on approval.
  it("keeps room for the body whatever the headers hold, and says how much of each it leaves out", () => {
    const recipients = Array.from({ length: 25 }, (_, i) => `${"r".repeat(180)}${i}@competitor.example`);
    const out = describeSend({ subject: "Offer", recipients, lines: [`To: ${recipients.join(", ")}`, "Subject: Offer"], body: "Our best price." });
    expect(out.summary).toBe("Send “Offer” to 25 recipients?");
    expect(out.details).toMatch(/… \[3,\d{3} more characters of the recipients and headers not shown\]\n\nOur best price\.$/);
    expect(out.details.length).toBeLessThanOrEqual(4000);
  });

  // Found by helper-106: the approver saw the text part only, while most mail programs show the HTML part, which
  // carried a phishing link under "Thanks for your order.".
  it("shows the HTML part's links and words beside the text", () => {
    const out = describeSend({
      subject: "Your order",
      recipients: ["a@example.org"],
      lines: ["To: a@example.org", "Subject: Your order"],
      body: "Thanks for your order.",
      html: '<style>p{}</style><p>Your account is locked. <a href="https://evil.example/login">Sign in</a> &amp; confirm.</p>',
    });
    expect(out.details).toContain("Links and images: https://evil.example/login");
    expect(out.details).toContain("Words: Your account is locked. Sign in & confirm.");
    expect(out.details.endsWith("\n\nThanks for your order.")).toBe(true);
  });

  it("describes a held draft from its fields", () => {
    const draft = { id: "drf_x", to: ["a@example.org"], cc: ["c@example.org"], bcc: [], subject: null, text: null } as unknown as MailDraft;
    expect(describeDraft(draft, [{ name: "a.pdf", sizeBytes: 3 }])).toEqual({
      summary: "Send “(no subject)” to 2 recipients?",
      details: "From draft drf_x\nTo: a@example.org\nCc: c@example.org\nSubject: \nAttachments: a.pdf (3 bytes)\n\n(HTML only)",
    });
  });
});
