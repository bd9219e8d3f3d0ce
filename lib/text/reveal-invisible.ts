/**
 * Characters that draw nothing yet change how a name reads or carry what nobody sees: every default-ignorable code
 * point of Unicode (bidi embeddings, overrides and isolates — `invoice<U+202E>fdp.exe` shows as `invoiceexe.pdf` —,
 * direction marks, zero-width spaces, word joiners, the BOM, a soft hyphen, the Hangul fillers, tag characters,
 * variation selectors, …), controls other than tab and line breaks, line and paragraph separators and the
 * interlinear annotation controls. Runs of tags or of variation selectors hide a whole text after a visible one
 * ("Refund 12 €" + tags; the "emoji smuggling" of one byte per selector).
 */
const INVISIBLE = /[\p{Cc}\p{Default_Ignorable_Code_Point}\u2028\u2029\uFFF9-\uFFFB]/u;

/** A subdivision flag (England: 🏴 gbeng, cancel tag), matched first: its tags draw the flag and stay as they are. */
const FLAG = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F}/u;

const SHOWN = new RegExp(`(${FLAG.source})|${INVISIBLE.source}`, "gu");

const isSelector = (cp = 0) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180f && cp !== 0x180e);
const isJoiner = (cp = 0) => cp === 0x200c || cp === 0x200d;
const EMOJI = /^\p{Emoji}$/u;
const MONGOLIAN_LETTER = /^(?=\p{sc=Mongolian})\p{L}$/u;

/** The code point that ends just before `at` (0 at the start). */
function codePointBefore(text: string, at: number): number {
  const unit = text.charCodeAt(at - 1);
  return unit >= 0xdc00 && unit <= 0xdfff && at >= 2 ? (text.codePointAt(at - 2) ?? 0) : unit || 0;
}

/**
 * Whether the invisible `c` at `at` is one that text needs and that hides next to nothing, so it stays as it is: a
 * single emoji presentation selector (VS-15, VS-16) right after an emoji (`❤️`, `1️⃣`), a single Mongolian free
 * variation selector right after a Mongolian letter, a single ZWJ or ZWNJ (emoji sequences, Indic conjuncts, Persian).
 * Every other selector is written out: VS-1 to VS-14 and the supplementary selectors (U+E0100–E01EF) have rare uses
 * (a mathematical symbol's variant, a kanji's glyph variant), and anywhere else each would carry a hidden byte; so is
 * a run, its first selector or joiner included. Tab and line breaks are matched as controls and kept here.
 */
function kept(text: string, at: number, c: string): boolean {
  if (c === "\t" || c === "\n" || c === "\r") return true;
  const cp = c.codePointAt(0) ?? 0;
  const before = codePointBefore(text, at);
  const after = text.codePointAt(at + c.length);
  if (isJoiner(cp)) return !isJoiner(before) && !isJoiner(after);
  if (!isSelector(cp) || isSelector(after)) return false;
  const base = String.fromCodePoint(before);
  if (cp === 0xfe0e || cp === 0xfe0f) return EMOJI.test(base);
  return cp <= 0x180f && MONGOLIAN_LETTER.test(base);
}

const mark = (c: string) => `[U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}]`;

/**
 * Text an agent or a stranger chose (a file name, a sender, a subject), with each invisible character written out
 * as `[U+202E]`: the owner sees what is really there, and can type it where a name must be typed to confirm.
 */
export const revealInvisible = (text: string): string =>
  text.replace(SHOWN, (c, flag: string | undefined, at: number) => flag ?? (kept(text, at, c) ? c : mark(c)));

/** Whether `typed` names `text`, as stored or as revealInvisible shows it. */
export const namesText = (typed: string, text: string): boolean => typed === text || typed === revealInvisible(text);
