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

  it("writes out tag characters, fillers and the other characters Chromium draws as nothing or a blank", () => {
    // "Refund 12 €" carrying a hidden "Hi" in tag characters, which no screen shows.
    expect(revealInvisible("Refund 12 €\u{E0048}\u{E0069}")).toBe("Refund 12 €[U+E0048][U+E0069]");
    expect(revealInvisible("\u3164\u115F\u1160\uFFA0")).toBe("[U+3164][U+115F][U+1160][U+FFA0]");
    expect(revealInvisible("a\u034Fb\u17B4c\u{1D173}d\u{1BCA0}e")).toBe("a[U+034F]b[U+17B4]c[U+1D173]d[U+1BCA0]e");
    // Tags outside a well-formed flag are written out, also right after one.
    expect(revealInvisible("\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\u{E0041}")).toBe(
      "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}[U+E0041]",
    );
  });

  it("leaves ordinary text, right-to-left scripts, emoji sequences, tabs and line breaks alone", () => {
    const england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
    for (const s of ["report.pdf", "שלום.txt", "مرحبا", "👩‍💻 dev", "क्‍ष", "two\nlines\tand\r\n", "", `go ${england} and ${england}!`, "❤️ ok"]) {
      expect(revealInvisible(s)).toBe(s);
    }
  });

  it("accepts a name typed as stored or as shown", () => {
    expect(namesText("invoice\u202Efdp.exe", "invoice\u202Efdp.exe")).toBe(true);
    expect(namesText("invoice[U+202E]fdp.exe", "invoice\u202Efdp.exe")).toBe(true);
    expect(namesText("invoicefdp.exe", "invoice\u202Efdp.exe")).toBe(false);
    expect(namesText("invoiceexe.pdf", "invoice\u202Efdp.exe")).toBe(false);
  });
});
