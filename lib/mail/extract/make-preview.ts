const PREVIEW_CHARS = 200;

/**
 * The first 200 characters of the reply, whitespace collapsed: what a thread or message list shows. Counted in code
 * points, so a surrogate pair is never split; null when there is no text at all.
 */
export function makePreview(text: string | null): string | null {
  if (text === null) return null;
  // Word by word, as far as 200 characters take: whitespace runs are skipped once each, however long. Collapsing a
  // window, then the whole text when the window was mostly whitespace, cost 270 ms for 2M emoji after 1,700
  // newlines, and 2 s and 260 MB for 10M (found by helper-124).
  const words: string[] = [];
  let length = 0;
  const word = /\S+/g;
  // Two code units a point at most: this many hold the 200 points, a space between words included.
  const enough = (PREVIEW_CHARS + 1) * 2;
  for (let m = word.exec(text); m && length < enough; m = word.exec(text)) {
    words.push(m[0].slice(0, enough));
    length += m[0].length + 1;
  }
  return Array.from(words.join(" ")).slice(0, PREVIEW_CHARS).join("").trimEnd();
}
