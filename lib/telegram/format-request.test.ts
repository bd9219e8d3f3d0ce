import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { requestText } from "@/lib/telegram/format-request";
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
});
