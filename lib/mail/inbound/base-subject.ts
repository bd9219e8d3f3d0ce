/** Characters of a subject a message and its thread keep (store-inbound.ts). */
export const SUBJECT_MAX = 2000;

/**
 * Reply and forward markers of the common clients, with `[n]` counts and an ASCII or full-width colon: English,
 * German, Nordic (SV, VS, VB, VL, FS), Dutch, French, Spanish and Portuguese (RV, RES, ENC), Polish and Czech (Odp,
 * PD), Turkish (YNT, İLT), Hungarian (Vá, Továbbítás), Greek (ΑΠ, ΣΧΕΤ, ΠΡΘ), Hebrew (השב, הועבר), Chinese
 * (回复, 答复, 回覆, 转发, 轉寄) and Korean (회신, 전달). A reply from a client that writes one of these joined
 * no thread before.
 */
const PREFIX =
  /^(?:re|fwd?|fw|aw|sv|vs|vb|vl|fs|antw|wg|tr|rv|res|enc|odp|pd|ynt|İlt|ilt|vá|továbbítás|απ|σχετ|πρθ|השב|הועבר|回复|答复|回覆|转发|轉寄|회신|전달)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]\s*/iu;
/** A list tag such as `[team]` or `[Bug 123]` in front. */
const TAG = /^\[[^\]]{0,100}\]\s*/;

/**
 * The subject a conversation keeps however often it is answered or forwarded (design §2.3 5b): `Re:`, `Fwd:`,
 * `AW:`, `SV:`, `答复：`… and list tags stripped from the front, repeatedly (`Re: [list] Fwd: Re[2]: x` → `x`),
 * whitespace collapsed, in NFC, lower case. A reply joins a thread only when this matches, so a stranger who cites a known Message-ID
 * under another subject starts a thread of his own.
 */
export function baseSubject(subject: string | null): string {
  // One Unicode form: a client that writes "Café" decomposed (macOS) answers the same conversation.
  let s = (subject ?? "").normalize("NFC").replace(/\s+/g, " ").trim();
  for (;;) {
    const next = s.replace(PREFIX, "").replace(TAG, "").trim();
    if (next === s) break;
    s = next;
  }
  return s.toLowerCase();
}

/**
 * Whether two base subjects are the same conversation's. Compared on their first 1,900 characters: a subject is
 * stored cut to SUBJECT_MAX, so the stored base of a longer one ends early (a reply's full subject never matched
 * it); the margin allows for the markers and runs of whitespace the cut subject lost from its base.
 */
export const sameBaseSubject = (a: string, b: string) => a.slice(0, SUBJECT_MAX - 100) === b.slice(0, SUBJECT_MAX - 100);
