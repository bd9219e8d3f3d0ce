/**
 * Characters that draw nothing yet change how a name reads: bidi embeddings, overrides and isolates
 * (`invoice<U+202E>fdp.exe` shows as `invoiceexe.pdf`, `x<U+202E>moc.lapyap@evil.example` as
 * `xelpmaxe.live@paypal.com`), direction marks, zero-width spaces, word joiners, the BOM, a soft hyphen, line and
 * paragraph separators and controls other than tab and line breaks. ZWJ and ZWNJ stay: scripts and emoji need them.
 */
const INVISIBLE = /(?![\t\n\r])\p{Cc}|[\u00AD\u061C\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]/gu;

const mark = (c: string) => `[U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}]`;

/**
 * Text an agent or a stranger chose (a file name, a sender, a subject), with each invisible character written out
 * as `[U+202E]`: the owner sees what is really there, and can type it where a name must be typed to confirm.
 */
export const revealInvisible = (text: string): string => text.replace(INVISIBLE, mark);

/** Whether `typed` names `text`, as stored or as revealInvisible shows it. */
export const namesText = (typed: string, text: string): boolean => typed === text || typed === revealInvisible(text);
