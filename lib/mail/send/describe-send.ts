import { htmlFacts } from "@/lib/mail/send/html-facts";
import { sliceWhole } from "@/lib/text/well-formed";

/**
 * The owner's view of a send held for approval (an email_send batch, a held draft): what the Approvals screen, email
 * and Telegram show. A one-line summary up to 300 characters, and details up to 4,000: the header lines up to 1,300,
 * then the body up to 2,500, each saying what it leaves out. Cut on whole characters: an emoji cut in half would be stored as U+FFFD, and the request's
 * action hash would no longer be that of the text stored and shown.
 */
export function describeSend(o: { subject: string; recipients: readonly string[]; lines: readonly string[]; body: string; html?: string | null }) {
  const to = o.recipients.length === 1 ? o.recipients[0] : `${o.recipients.length} recipients`;

  // Each part is cut apart, saying how much is not shown: cut as one, 25 long recipients filled the 4,000 characters
  // and the last recipient, the subject and the body went unseen, with nothing saying so (found by helper-106).
  // With an HTML part, its links and words take a share of the room (each part then gets less).
  const html = o.html ? shownUpTo(htmlFacts(o.html).join("\n"), 700, "of the HTML part") : null;
  const head = shownUpTo(o.lines.join("\n"), html ? 900 : 1300, "of the recipients and headers");
  const body = shownUpTo(o.body, html ? 2200 : 2500, "of the body");
  const parts = [head, ...(html ? [html] : []), body];
  return { summary: sliceWhole(`Send “${o.subject}” to ${to}?`, 300), details: sliceWhole(parts.join("\n\n"), 4000) };
}

/** `text` up to `max` characters, and when longer, a note of how many more there are. */
function shownUpTo(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  const shown = sliceWhole(text, max);
  return `${shown}… [${(text.length - shown.length).toLocaleString("en")} more characters ${what} not shown]`;
}
