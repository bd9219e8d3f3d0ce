import { describe, expect, it } from "vitest";
import { safeAttachmentName } from "@/lib/disk/save-attachment";
import { pathProblem } from "@/lib/disk/path-rules";
import { attachmentNames } from "@/lib/mail/inbound/attachment-names";

const bytes = (s: string) => Buffer.byteLength(s);
/** Each name as it must land on disk: a path `evt_…/name` the disk rules accept. */
const usable = (name: string) => expect(pathProblem(`evt_x/${name}`), name).toBeNull();

describe("attachment names", () => {
  it("strips bidi controls and other invisible format characters, so the extension shown is the real one", () => {
    // "invoice<RLO>fdp.exe" displays as "invoiceexe.pdf".
    expect(safeAttachmentName("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    const invisible = [
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E", // LRE RLE PDF LRO RLO
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069", // LRI RLI FSI PDI
      "\u200E",
      "\u200F",
      "\u061C", // LRM RLM ALM
      "\u200B",
      "\uFEFF",
      "\u00AD",
      "\u2028",
      "\u2029",
      "\u0085",
      "\u0007",
      "\n",
      "\r",
      "\t",
    ];
    for (const c of invisible) {
      expect(safeAttachmentName(`re${c}port.pdf`), JSON.stringify(c)).toBe("report.pdf");
    }
    expect(safeAttachmentName("\u202E\u2066\u200F")).toBe("attachment");
    // Default-ignorable letters and marks: variation selectors (a run smuggles a text, a byte each), Hangul fillers
    // (blank letters), the combining grapheme joiner, a Mongolian selector.
    const smuggled = [..."hi"].map((c) => String.fromCodePoint(0xe0100 + c.charCodeAt(0) - 16)).join("");
    expect(safeAttachmentName(`report${smuggled}.pdf`)).toBe("report.pdf");
    for (const c of ["\uFE0F", "\uFE00", "\u{E0100}", "\u3164", "\uFFA0", "\u115F", "\u1160", "\u034F", "\u180B"]) {
      expect(safeAttachmentName(`re${c}port.pdf`), JSON.stringify(c)).toBe("report.pdf");
    }
    expect(safeAttachmentName("\u3164.pdf")).toBe(".pdf");
    expect(safeAttachmentName("\u3164\uFE0F")).toBe("attachment");
    // Letters of right-to-left scripts stay.
    expect(safeAttachmentName("فاتورة.pdf")).toBe("فاتورة.pdf");
  });

  it("gives names in NFC, so a name macOS decomposed is fetched by the name typed, and two spellings of one name are two names", () => {
    const nfc = "résumé.pdf";
    // Before: the NFD name stayed as sent (file_get by the typed NFC name: NOT_FOUND) and beside the NFC one without a (2).
    expect(attachmentNames([nfc.normalize("NFD")])).toEqual([nfc]);
    expect(attachmentNames([nfc, nfc.normalize("NFD")])).toEqual([nfc, "résumé (2).pdf"]);
  });

  it("keeps the extension when it shortens a long name to 255 bytes, without splitting a character", () => {
    const long = safeAttachmentName(`${"a".repeat(300)}.pdf`);
    expect(long).toBe(`${"a".repeat(251)}.pdf`);
    for (const stem of ["é".repeat(200), "😀".repeat(100), `x${"語".repeat(120)}`]) {
      const name = safeAttachmentName(`${stem}.tar.gz`);
      expect(name.endsWith(".gz"), name).toBe(true);
      expect(bytes(name)).toBeLessThanOrEqual(255);
      expect(bytes(name)).toBeGreaterThan(250);
      expect(name).not.toMatch(/\p{Cs}/u);
      expect(name).not.toContain("\uFFFD");
      usable(name);
    }
    // No extension, or one too long to be one: cut as a whole.
    expect(safeAttachmentName("b".repeat(300))).toBe("b".repeat(255));
    expect(bytes(safeAttachmentName(`c.${"d".repeat(300)}`))).toBe(255);
  });

  it("keeps repeats of a long name unique, within 255 bytes and with their extension", () => {
    const long = `${"a".repeat(300)}.pdf`;
    const names = attachmentNames([long, long, long]);
    expect(new Set(names).size).toBe(3);
    expect(names[1]).toMatch(/a \(2\)\.pdf$/);
    expect(names[2]).toMatch(/a \(3\)\.pdf$/);
    for (const n of names) {
      expect(bytes(n)).toBeLessThanOrEqual(255);
      expect(safeAttachmentName(n)).toBe(n);
      usable(n);
    }
  });
});
