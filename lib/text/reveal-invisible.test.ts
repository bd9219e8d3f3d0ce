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

  it("writes out variation selectors that hide data: runs, after a character that takes none, and the supplementary ones", () => {
    // "emoji smuggling": one byte per selector (VS1–16 for 0–15, VS17–256 for 16–255) after one visible character.
    const smuggled = (visible: string, text: string) =>
      visible + [...Buffer.from(text)].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join("");
    expect(revealInvisible(smuggled("😀", "hi"))).toBe("😀[U+E0158][U+E0159]");
    expect(revealInvisible(smuggled("A", "\u0003"))).toBe("A[U+FE03]");
    // A run is written out whole, its first selector included, even when that one alone would be presentation.
    expect(revealInvisible("\u2764\uFE0F\uFE0F")).toBe("\u2764[U+FE0F][U+FE0F]");
    expect(revealInvisible("\u{1F600}\uFE0F\u{E0100}")).toBe("\u{1F600}[U+FE0F][U+E0100]");
    // After a character that takes no emoji presentation, and VS-1 to VS-14 anywhere.
    expect(revealInvisible("a\uFE0Fb\uFE0E")).toBe("a[U+FE0F]b[U+FE0E]");
    expect(revealInvisible("\u2269\uFE00 \u{1F600}\uFE00")).toBe("\u2269[U+FE00] \u{1F600}[U+FE00]");
    // The supplementary selectors, even a single one after a kanji: each would carry a byte per ideograph.
    expect(revealInvisible("\u845B\u{E0100}")).toBe("\u845B[U+E0100]");
    // Mongolian's free variation selectors: one after a Mongolian letter is how the script picks a form.
    expect(revealInvisible("\u1820\u180B \u1820\u180F")).toBe("\u1820\u180B \u1820\u180F");
    expect(revealInvisible("a\u180B \u1820\u180B\u180C \u1810\u180D")).toBe("a[U+180B] \u1820[U+180B][U+180C] \u1810[U+180D]");
  });

  it("writes out runs of ZWJ and ZWNJ, which no script or emoji sequence uses, and keeps a single one", () => {
    expect(revealInvisible("a\u200D\u200C\u200Db")).toBe("a[U+200D][U+200C][U+200D]b");
    expect(revealInvisible("\u{1F469}\u200D\u200D\u{1F4BB}")).toBe("\u{1F469}[U+200D][U+200D]\u{1F4BB}");
    expect(revealInvisible("\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645")).toBe("\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645");
  });

  it("writes out every default-ignorable code point of Unicode, but for a single joiner", () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!/\p{Default_Ignorable_Code_Point}/u.test(c) || cp === 0x200c || cp === 0x200d) continue;
      if (revealInvisible(`a${c}b`) !== `a[U+${cp.toString(16).toUpperCase().padStart(4, "0")}]b`) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
    // Among them, those the Unicode data lists apart: the deprecated format controls, the unassigned ones, a filler.
    expect(revealInvisible("a\u2065\u206A\u206Fb\uFFF0\u{E0080}\u{E0FFF}\u3164")).toBe("a[U+2065][U+206A][U+206F]b[U+FFF0][U+E0080][U+E0FFF][U+3164]");
  });

  it("leaves ordinary text, right-to-left scripts, emoji sequences, tabs and line breaks alone", () => {
    const england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
    for (const s of ["report.pdf", "שלום.txt", "مرحبا", "👩‍💻 dev", "क्‍ष", "two\nlines\tand\r\n", "", `go ${england} and ${england}!`, "❤️ ok"]) {
      expect(revealInvisible(s)).toBe(s);
    }
    // Emoji presentation (VS-16) and text presentation (VS-15), alone and inside keycaps and ZWJ sequences.
    const presented = ["\u263A\uFE0F", "1\uFE0F\u20E3 #\uFE0F\u20E3", "\u{1F3F3}\uFE0F\u200D\u{1F308}", "\u{1F441}\uFE0F\u200D\u{1F5E8}\uFE0F"];
    for (const s of [...presented, "\u231A\uFE0E", "\u2714\uFE0F done", "\u2764\uFE0F\u200D\u{1F525}", "\u{1F1EB}\u{1F1F7}"]) {
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
