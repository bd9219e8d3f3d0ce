import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { closedText, requestKeyboard, requestText } from "@/lib/telegram/format-request";
import { wellFormed } from "@/lib/text/well-formed";

/** What Telegram counts: the text after entity parsing (tags gone, entities decoded). */
const telegramLength = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, "x").length;

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

  it("stays within 4096 characters when every field is made of invisible characters, each written out as eight", () => {
    const zw = (first: string, n: number) => `${first}${"\u200B".repeat(n - 1)}`;
    const r = {
      id: "req_0123456789abcdefghijkl",
      kind: "tool",
      risk: "high",
      amount: 1,
      action: zw("a", 100),
      agent: zw("g", 200),
      summary: zw("s", 300),
      details: zw("d", 4000),
      options: [zw("o", 40)],
      status: "modified",
      decision: zw("o", 40),
      decidedBy: "channel:x",
      comment: "c".repeat(2000),
      expiresAt: new Date("2026-12-05T13:00:00Z"),
    } as unknown as ApprovalRequest;
    // Before: 4,357 both ways (the action and agent lines were never cut), so the Bot API refused the message.
    expect(telegramLength(requestText(r))).toBeLessThanOrEqual(4096);
    expect(telegramLength(closedText(r))).toBeLessThanOrEqual(4096);
    expect(requestText(r)).toContain(`Action: a${"[U+200B]".repeat(14)}`);
    for (const b of requestKeyboard(r).flat()) expect(b.text.length).toBeLessThanOrEqual(64);
  });

  it("shows a question whole up to 3,400 characters (ask_human takes 4,000), and within the limit once answered", () => {
    const question = (text: string, extra: Partial<ApprovalRequest> = {}) =>
      ({
        id: "req_q",
        kind: "question",
        risk: null,
        amount: null,
        action: null,
        agent: "bot",
        summary: text,
        details: null,
        options: [],
        expiresAt: new Date(),
        ...extra,
      }) as unknown as ApprovalRequest;
    // Before: cut at 600 characters, so the person answering saw a fifth of a long question.
    const long = `${"q".repeat(3000)} end?`;
    expect(requestText(question(long))).toContain(long);
    const longest = question("q".repeat(4000), { status: "answered", decision: "a".repeat(300), decidedBy: "channel:x", comment: "c".repeat(2000) });
    expect(telegramLength(requestText(longest))).toBeLessThanOrEqual(4096);
    expect(telegramLength(closedText(longest))).toBeLessThanOrEqual(4096);
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
