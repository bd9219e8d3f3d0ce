import EmailReplyParser from "email-reply-parser";

/**
 * Past this many characters the text is kept whole: email-reply-parser scans with regular expressions line by line,
 * and a reply worth extracting is never this long (mailparser caps HTML at 2 MB, text has no cap).
 */
const MAX_PARSED = 256 * 1024;

/**
 * The reply without its quoted history and signature (email-reply-parser 2.3.7: "On … wrote:" blocks, `>` quotes,
 * "Sent from my iPhone"). Automatic mail (bounces, auto-replies) is kept whole: its "quote" is the point of it.
 * A reply that is nothing but quote extracts to nothing; the whole text is kept then, so no mail reads as empty.
 */
export function extractText(text: string | null, opts: { keepWhole: boolean }): string | null {
  if (text === null) return null;
  if (opts.keepWhole || text.length > MAX_PARSED) return text;
  const reply = new EmailReplyParser().parseReply(text).trim();
  return reply === "" ? text : reply;
}
