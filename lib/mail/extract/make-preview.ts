const PREVIEW_CHARS = 200;
/** Characters read for a preview: plenty for 200 after collapsing any ordinary whitespace, without copying 2 MB. */
const WINDOW = PREVIEW_CHARS * 8;

/**
 * The first 200 characters of the reply, whitespace collapsed: what a thread or message list shows. Counted in code
 * points, so a surrogate pair is never split; null when there is no text at all.
 */
export function makePreview(text: string | null): string | null {
  if (text === null) return null;
  const collapse = (s: string) => Array.from(s.replace(/\s+/g, " ").trimStart()).slice(0, PREVIEW_CHARS + 1);
  let points = collapse(text.slice(0, WINDOW));
  // A window mostly whitespace (or cut inside a pair at its end) is not enough: read the whole text then.
  if (points.length <= PREVIEW_CHARS && text.length > WINDOW) points = collapse(text);
  return points.slice(0, PREVIEW_CHARS).join("").trimEnd();
}
