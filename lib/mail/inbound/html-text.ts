import { htmlToText } from "html-to-text";
import { Parser } from "htmlparser2";
import { nestsTooDeep } from "@/lib/mail/html-depth";

/** HTML longer than this is not converted (mailparser's own bound, maxHtmlLengthToParse, which we kept). */
export const MAX_HTML_TO_TEXT_CHARS = 2_000_000;
/** Quotes nested deeper than any mail program writes: each level prefixes every line inside it with `> `. */
const MAX_QUOTE_DEPTH = 20;

/**
 * The text of a message that has only HTML, as mailparser derived it (html-to-text, its options), bounded. mailparser
 * converted every HTML part of a message on the event loop, each up to 2 MB: four 1.9 MB parts held it 8-16 s; and
 * `<blockquote>` 600 deep around 4,000 lines made 4.8 MB of `> ` prefixes from 27 KB (found by helper-124). One
 * conversion a message, of at most 2 MB, quotes at most 20 deep; past that the text is the HTML's words, tags cut
 * out (linear). The HTML itself is kept whole either way.
 */
export function htmlText(html: string): string {
  if (html.length > MAX_HTML_TO_TEXT_CHARS || nestsTooDeep(html) || quotesDeeperThan(html, MAX_QUOTE_DEPTH)) return htmlWords(html);
  return htmlToText(html, { limits: { maxDepth: 1000 } });
}

function quotesDeeperThan(html: string, max: number): boolean {
  if (!/<blockquote/i.test(html)) return false;
  let depth = 0;
  let deeper = false;
  const parser = new Parser({
    onopentag(name) {
      if (name === "blockquote" && ++depth > max) {
        deeper = true;
        parser.pause();
      }
    },
    onclosetag(name) {
      if (name === "blockquote") depth--;
    },
  });
  parser.end(html);
  return deeper;
}

/** The words of HTML, tags cut out: `<` to the next `<` or `>` is a tag (linear, unlike `<[^>]*>`). */
const htmlWords = (html: string) =>
  html
    .slice(0, MAX_HTML_TO_TEXT_CHARS)
    .replace(/<[^<>]*>/g, " ")
    .replace(/&nbsp;/gi, " ")
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
