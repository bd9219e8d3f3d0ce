import { Parser } from "htmlparser2";

/** How deep HTML may nest before it is not parsed as a tree: Chromium's parser caps nesting at 512 too. */
export const MAX_HTML_DEPTH = 512;

/**
 * Whether HTML opens more than MAX_HTML_DEPTH elements at once. htmlparser2, under both the reply extraction and
 * the owner's sanitizer, spends O(depth) on every tag opened and on every close tag that matches nothing, so a
 * sender's 2 MB of `<div>` then `</b>` took a minute a pass; this reads only until the cap is passed.
 */
export function nestsTooDeep(html: string): boolean {
  let depth = 0;
  let tooDeep = false;
  const parser = new Parser({
    onopentag() {
      if (++depth > MAX_HTML_DEPTH) {
        tooDeep = true;
        parser.pause();
      }
    },
    onclosetag() {
      depth--;
    },
  });
  // A paused parser reads no further.
  parser.end(html);
  return tooDeep;
}
