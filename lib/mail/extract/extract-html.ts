import { Parser } from "htmlparser2";
import { isQuoteContainer } from "@/lib/mail/extract/quote-container";
import { MAX_HTML_DEPTH } from "@/lib/mail/html-depth";

/** Elements that never have content or a closing tag. */
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);

/**
 * The HTML reply without its quoted history: one streaming htmlparser2 pass (O(n), no DOM, about what sanitize-html
 * costs) that copies tags and text until the first quote container, then closes every element still open, so the
 * result is well-formed however the cut fell. Entities are not decoded, so text and attributes are copied as they
 * came; only an attribute's own double quotes are escaped, since every attribute is rewritten double-quoted.
 * Comments and processing instructions are dropped (conditional comments are Outlook's rendering hints).
 * Automatic mail is kept whole, as in extractText, and so is HTML nested deeper than MAX_HTML_DEPTH.
 */
export function extractHtml(html: string | null, opts: { keepWhole: boolean }): string | null {
  if (html === null || opts.keepWhole) return html;
  const out: string[] = [];
  const open: string[] = [];
  let cut = false;
  let tooDeep = false;
  // Outlook puts an <hr> just before #divRplyFwdMsg: where it started, while only whitespace followed it.
  let hrAt = -1;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (cut) return;
        if (isQuoteContainer(name, attribs)) {
          cut = true;
          if (hrAt >= 0) out.length = hrAt;
          for (let i = open.length - 1; i >= 0; i--) out.push(`</${open[i]}>`);
          open.length = 0;
          // Nothing after the cut is kept: the rest need not be read.
          parser.pause();
          return;
        }
        const mark = out.length;
        out.push(`<${name}${attributes(attribs)}>`);
        if (VOID.has(name)) hrAt = name === "hr" ? mark : -1;
        else {
          open.push(name);
          hrAt = -1;
          // Deeper than a browser builds (html-depth.ts says what it cost): kept whole, a cut not ours to guess.
          if (open.length > MAX_HTML_DEPTH) {
            tooDeep = true;
            parser.pause();
          }
        }
      },
      ontext(text) {
        if (cut) return;
        out.push(text);
        if (text.trim() !== "") hrAt = -1;
      },
      onclosetag(name) {
        if (cut || VOID.has(name)) return;
        // htmlparser2 closes in order (implied closings included), so the innermost open element is this one.
        const i = open.lastIndexOf(name);
        if (i < 0) return;
        for (let j = open.length - 1; j >= i; j--) out.push(`</${open[j]}>`);
        open.length = i;
        hrAt = -1;
      },
    },
    { decodeEntities: false, recognizeSelfClosing: true },
  );
  // A paused parser reads no further and calls nothing more, not even the closings of what was open.
  parser.end(html);
  if (tooDeep) return html;
  for (let i = open.length - 1; i >= 0; i--) out.push(`</${open[i]}>`);
  return out.join("");
}

function attributes(attribs: Record<string, string>): string {
  let s = "";
  for (const [k, v] of Object.entries(attribs)) s += v === "" ? ` ${k}` : ` ${k}="${v.replaceAll('"', "&quot;")}"`;
  return s;
}
