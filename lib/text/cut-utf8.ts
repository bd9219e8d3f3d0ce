/** Cut to at most `max` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, max: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return text;
  return new TextDecoder().decode(bytes.subarray(0, max)).replace(/\uFFFD+$/, "");
}
