import { describe, expect, it } from "vitest";
import { namesText, revealInvisible } from "@/lib/text/reveal-invisible";

describe("revealInvisible", () => {
  it("writes out bidi overrides, isolates, marks and zero-width characters, so a name reads as what it is", () => {
    expect(revealInvisible("invoice\u202Efdp.exe")).toBe("invoice[U+202E]fdp.exe");
    expect(revealInvisible("x\u202Emoc.lapyap@evil.example")).toBe("x[U+202E]moc.lapyap@evil.example");
    expect(revealInvisible("a\u2066b\u2069c\u200Fd\u061Ce")).toBe("a[U+2066]b[U+2069]c[U+200F]d[U+061C]e");
    expect(revealInvisible("pay\u200Bpal\uFEFF\u2060.com\u00AD")).toBe("pay[U+200B]pal[U+FEFF][U+2060].com[U+00AD]");
    expect(revealInvisible("a\u0007b\u2028c\u0085")).toBe("a[U+0007]b[U+2028]c[U+0085]");
  });

  it("leaves ordinary text, right-to-left scripts, emoji sequences, tabs and line breaks alone", () => {
    for (const s of ["report.pdf", "שלום.txt", "مرحبا", "👩‍💻 dev", "क्‍ष", "two\nlines\tand\r\n", ""]) expect(revealInvisible(s)).toBe(s);
  });

  it("accepts a name typed as stored or as shown", () => {
    expect(namesText("invoice\u202Efdp.exe", "invoice\u202Efdp.exe")).toBe(true);
    expect(namesText("invoice[U+202E]fdp.exe", "invoice\u202Efdp.exe")).toBe(true);
    expect(namesText("invoicefdp.exe", "invoice\u202Efdp.exe")).toBe(false);
    expect(namesText("invoiceexe.pdf", "invoice\u202Efdp.exe")).toBe(false);
  });
});
