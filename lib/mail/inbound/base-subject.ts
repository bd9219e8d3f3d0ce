/** Reply and forward markers of the common clients (English, German, Nordic, Dutch, French, Italian…), with `[n]` counts. */
const PREFIX = /^(?:re|fwd?|fw|aw|sv|vs|antw|wg|tr)\s*(?:\[\d+\]|\(\d+\))?\s*:\s*/i;
/** A list tag such as `[team]` or `[Bug 123]` in front. */
const TAG = /^\[[^\]]{0,100}\]\s*/;

/**
 * The subject a conversation keeps however often it is answered or forwarded (design §2.3 5b): `Re:`, `Fwd:`,
 * `AW:`, `SV:`… and list tags stripped from the front, repeatedly (`Re: [list] Fwd: Re[2]: x` → `x`), whitespace
 * collapsed, lower case. A reply joins a thread only when this matches, so a stranger who cites a known Message-ID
 * under another subject starts a thread of his own.
 */
export function baseSubject(subject: string | null): string {
  let s = (subject ?? "").replace(/\s+/g, " ").trim();
  for (;;) {
    const next = s.replace(PREFIX, "").replace(TAG, "").trim();
    if (next === s) break;
    s = next;
  }
  return s.toLowerCase();
}
