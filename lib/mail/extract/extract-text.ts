import EmailReplyParser from "email-reply-parser";

/**
 * Lines handed to email-reply-parser. It tests some 40 signature patterns against every line (about 10–30 µs a
 * line: 4–12 ms for a 400-line message, more than parsing and authenticating it), and a reply's own text, its
 * signature and the quote's "On … wrote:" header come first. A longer text is judged by its head: if the head
 * holds a quote or a signature, what follows it is history too; if not, the text is kept whole.
 */
const HEAD_LINES = 60;
/** A quoted line as email-reply-parser sees one: `>` first. */
const QUOTED = /^>/;

/**
 * The reply without its quoted history and signature (email-reply-parser 2.3.7: "On … wrote:" blocks, `>` quotes,
 * "Sent from my iPhone"). Automatic mail (bounces, auto-replies) is kept whole: its "quote" is the point of it.
 * A reply that is nothing but quote extracts to nothing; the whole text is kept then, so no mail reads as empty.
 */
export function extractText(text: string | null, opts: { keepWhole: boolean }): string | null {
  if (text === null || opts.keepWhole) return text;
  const { lines, more } = headLines(text);
  const head = lines.join("\n");
  const reply = new EmailReplyParser().parseReply(head).trim();
  if (reply === "") return text;
  // A head with nothing hidden in it, and more below: the cut is not ours to guess.
  if (more && reply === head.trim()) return text;
  return reply;
}

/**
 * The first HEAD_LINES lines with each run of quoted lines as one `>` line (the parser hides quoted lines whatever
 * they say, so this changes no answer, only the work: a 20 KB quote is 400 lines), read no further than needed.
 */
function headLines(text: string): { lines: string[]; more: boolean } {
  const lines: string[] = [];
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    const quoted = QUOTED.test(line);
    if (quoted && lines[lines.length - 1] === ">") continue;
    if (lines.length === HEAD_LINES) return { lines, more: true };
    lines.push(quoted ? ">" : line);
  }
  return { lines, more: false };
}
