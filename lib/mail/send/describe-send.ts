import { sliceWhole } from "@/lib/text/well-formed";

/**
 * The owner's view of a send held for approval (an email_send batch, a held draft): what the Approvals screen, email
 * and Telegram show. A one-line summary up to 300 characters, and details up to 4,000: the header lines, then the
 * body up to 2,500. Cut on whole characters: an emoji cut in half would be stored as U+FFFD, and the request's
 * action hash would no longer be that of the text stored and shown.
 */
export function describeSend(o: { subject: string; recipients: readonly string[]; lines: readonly string[]; body: string }) {
  const to = o.recipients.length === 1 ? o.recipients[0] : `${o.recipients.length} recipients`;
  const body = o.body.length > 2500 ? `${sliceWhole(o.body, 2500)}…` : o.body;
  return { summary: sliceWhole(`Send “${o.subject}” to ${to}?`, 300), details: sliceWhole(`${o.lines.join("\n")}\n\n${body}`, 4000) };
}
