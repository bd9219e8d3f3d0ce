/**
 * Characters that draw nothing yet change how a name reads: bidi embeddings, overrides and isolates
 * (`invoice<U+202E>fdp.exe` shows as `invoiceexe.pdf`, `x<U+202E>moc.lapyap@evil.example` as
 * `xelpmaxe.live@paypal.com`), direction marks, zero-width spaces, word joiners, the BOM, a soft hyphen, line and
 * paragraph separators and controls other than tab and line breaks. Also what draws nothing or a blank in Chromium:
 * tag characters (U+E0000–E007F, which carry a whole hidden ASCII text after a visible name), the Hangul fillers, the
 * combining grapheme joiner, Khmer's invisible vowels and the musical and shorthand format controls. ZWJ, ZWNJ and
 * variation selectors stay: scripts and emoji need them, as the tags of a subdivision flag (🏴 + tags + cancel tag).
 */
const INVISIBLE =
  /(?![\t\n\r])\p{Cc}|\u034F|\u17B4|\u17B5|[\u00AD\u061C\u115F\u1160\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}]/u;

/** A subdivision flag (England: 🏴 gbeng, cancel tag), matched first: its tags draw the flag and stay as they are. */
const FLAG = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F}/u;

const SHOWN = new RegExp(`(${FLAG.source})|${INVISIBLE.source}`, "gu");

const mark = (c: string) => `[U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}]`;

/**
 * Text an agent or a stranger chose (a file name, a sender, a subject), with each invisible character written out
 * as `[U+202E]`: the owner sees what is really there, and can type it where a name must be typed to confirm.
 */
export const revealInvisible = (text: string): string => text.replace(SHOWN, (c, flag?: string) => flag ?? mark(c));

/** Whether `typed` names `text`, as stored or as revealInvisible shows it. */
export const namesText = (typed: string, text: string): boolean => typed === text || typed === revealInvisible(text);
