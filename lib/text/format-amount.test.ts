import { describe, expect, it } from "vitest";
import { formatAmount } from "@/lib/text/format-amount";

describe("formatAmount", () => {
  it("groups thousands and keeps at most two decimals", () => {
    expect(formatAmount(1250)).toBe("1,250");
    expect(formatAmount(12.5)).toBe("12.5");
    expect(formatAmount(1234567.891)).toBe("1,234,567.89");
    expect(formatAmount(0)).toBe("0");
  });
});
