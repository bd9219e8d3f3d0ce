import { describe, expect, it } from "vitest";
import { cutUtf8 } from "@/lib/text/cut-utf8";

describe("cutUtf8", () => {
  it("leaves text that fits as it is", () => {
    expect(cutUtf8("héllo", 6)).toBe("héllo");
    expect(cutUtf8("", 0)).toBe("");
  });

  it("cuts at the byte limit, dropping a character that would be split", () => {
    expect(cutUtf8("abcdef", 3)).toBe("abc");
    // "é" is two bytes: a limit of 2 would split it after "a".
    expect(cutUtf8("aéb", 2)).toBe("a");
    expect(cutUtf8("aéb", 3)).toBe("aé");
    // "€" is three bytes and "😀" four: cut inside each.
    expect(cutUtf8("€€", 4)).toBe("€");
    expect(cutUtf8("x😀", 4)).toBe("x");
  });

  it("never returns more than the limit in bytes", () => {
    const text = "aé€😀".repeat(50);
    for (let max = 0; max < 100; max++) {
      const cut = cutUtf8(text, max);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(max);
      expect(text.startsWith(cut)).toBe(true);
    }
  });
});
