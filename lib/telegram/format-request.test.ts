import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { closedText, requestKeyboard, requestText } from "@/lib/telegram/format-request";
import { wellFormed } from "@/lib/text/well-formed";

describe("requestText", () => {
  it("cuts long details and summaries without splitting an emoji, so the Bot API gets valid text", () => {
    // The details cut falls at 2,799 units: right between the halves of the emoji.
    const r = {
      id: "req_x",
      kind: "tool",
      risk: "high",
      amount: null,
      summary: `${"s".repeat(598)}😀tail`,
      details: `${"d".repeat(2798)}😀 and more`,
      expiresAt: new Date(),
    };
    const text = requestText(r as unknown as ApprovalRequest);
    expect(wellFormed(text)).toBe(true);
    expect(text).toContain(`${"d".repeat(2798)}…`);
    expect(text).toContain(`${"s".repeat(598)}…`);
  });

  it("keeps the message after the decision within Telegram's 4096 characters, for a request at every input limit", () => {
    // What Telegram counts: the text after entity parsing (tags gone, entities decoded).
    const telegramLength = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, "x").length;
    const r = {
      id: "req_0123456789abcdefghijkl",
      kind: "tool",
      risk: "medium",
      amount: 123456789.5,
      action: "a".repeat(100),
      agent: "g".repeat(200),
      summary: "s".repeat(300),
      details: "<".repeat(4000),
      options: ["o".repeat(40)],
      status: "modified",
      decision: "o".repeat(40),
      decidedBy: `channel:${"l".repeat(40)}`,
      comment: "&".repeat(2000),
      expiresAt: new Date("2026-12-05T13:00:00Z"),
    } as unknown as ApprovalRequest;
    expect(telegramLength(requestText(r))).toBeLessThanOrEqual(4096);
    // Before: 4,125 with the outcome, the decider and the comment; the Bot API refused the edit, and the message
    // kept its live buttons.
    const closed = closedText(r);
    expect(telegramLength(closed)).toBeLessThanOrEqual(4096);
    expect(closed).toContain(`<b>✳️ Chose: ${"o".repeat(40)}</b> by channel:${"l".repeat(40)}\n“${"&amp;".repeat(499)}…”`);
  });

  it("writes out the invisible characters of what the agent wrote: summary, details, agent, options and the choice", () => {
    const r = {
      id: "req_y",
      kind: "approval",
      risk: null,
      amount: null,
      action: "pay\u200B",
      agent: "bot\u2066",
      summary: "Pay 10 EUR to \u202Eb0B",
      details: "Invoice\u200F 12",
      options: ["Yes\u202E", "No"],
      status: "modified",
      decision: "Yes\u202E",
      decidedBy: "channel:x",
      comment: null,
      expiresAt: new Date(),
    } as unknown as ApprovalRequest;
    const shown = [
      requestText(r),
      closedText(r),
      ...requestKeyboard(r)
        .flat()
        .map((b) => b.text),
    ].join("\n");
    expect(shown).toContain("Pay 10 EUR to [U+202E]b0B");
    expect(shown).toContain("Invoice[U+200F] 12");
    expect(shown).toContain("Agent: bot[U+2066]");
    expect(shown).toContain("Yes[U+202E]");
    expect(shown).not.toMatch(/[\u202E\u200B\u200F\u2066]/);
  });
});
