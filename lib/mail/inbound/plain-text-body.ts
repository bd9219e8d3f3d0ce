/**
 * The body of a message that is one part of plain text in UTF-8 or ASCII, sent as is (7bit, 8bit or binary), or
 * null for anything else. Such a message — most person-to-person mail — needs no MIME parser for its body:
 * mailparser would stream its 20 KB through a line splitter and a pass-through decoder only to return the same
 * bytes as a string, which is about two thirds of its CPU on such a message. parse-message.ts then gives mailparser
 * the header block alone, and the text is these bytes as mailparser reads them (UTF-8, CRLF as LF).
 *
 * The test is strict, so that mailparser would read the same header block and decode the body the same way:
 * - the header block ends at the first CRLF CRLF and holds no bare LF (the splitter ends it at the first empty
 *   line, of either kind), and every unfolded line of it is a `name: value` header;
 * - at most one Content-Type, and it is `text/plain` with no parameter but a UTF-8 or ASCII charset (no
 *   format=flowed, no comments);
 * - at most one Content-Transfer-Encoding, and it is 7bit, 8bit or binary;
 * - no Content-Disposition (an attachment by another name).
 * Anything else goes to mailparser whole.
 */
export function plainTextBody(raw: Buffer): { head: Buffer; body: Buffer } | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end <= 0) return null;
  const head = raw.subarray(0, end).toString("latin1");
  // A bare LF, or a first line that would continue nothing: the splitter's reading may differ from this one.
  if (/(^|[^\r])\n/.test(head) || head[0] === " " || head[0] === "\t") return null;
  let contentType = 0;
  let encoding = 0;
  // Header lines unfolded: a line that starts with space or tab continues the previous one.
  for (const line of head.replace(/\r\n(?=[ \t])/g, "").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1);
    if (name === "content-type") {
      // Longer is no plain text/plain type: and PLAIN's neighbouring \s* backtrack quadratically in spaces, 30,000
      // of them before a stray letter held the event loop 1.5 s, from anyone (found by helper-124).
      if (++contentType > 1 || value.length > MAX_TYPE_CHARS || !PLAIN.test(value)) return null;
    } else if (name === "content-transfer-encoding") {
      if (++encoding > 1 || !AS_IS.test(value)) return null;
    } else if (name === "content-disposition") {
      return null;
    }
  }
  return { head: raw.subarray(0, end + 4), body: raw.subarray(end + 4) };
}

const MAX_TYPE_CHARS = 200;
const PLAIN = /^\s*text\/plain\s*(;\s*charset\s*=\s*(utf-8|us-ascii|ascii|"utf-8"|"us-ascii"|"ascii")\s*)?;?\s*$/i;
const AS_IS = /^\s*(7bit|8bit|binary)\s*$/i;

/** The body as mailparser returns a plain text part: UTF-8, line ends as LF; null when empty (mailparser's none). */
export const plainText = (body: Buffer): string | null => body.toString("utf8").replace(/\r?\n/g, "\n") || null;
