import { citedIds } from "@/lib/mail/inbound/parse-dsn";
import type { ParsedMessage } from "@/lib/mail/inbound/parse-message";

export interface ComplaintReport {
  /** RFC 5965 Feedback-Type (`abuse`, `fraud`, `not-spam`…), lower case. */
  feedbackType: string;
  /** Original-Rcpt-To addresses: who complained, when the reporter says. */
  recipients: string[];
  /** Message-IDs quoted in the report (the returned message or its headers), without brackets. */
  citedIds: string[];
}

/** A complaint is about one message and its recipients, at most a send's 50 (parse-dsn.ts says why more is refused). */
const MAX_RECIPIENTS = 100;

/**
 * A spam complaint in the Abuse Reporting Format (multipart/report; report-type=feedback-report, RFC 5965), or null.
 * Read from the raw text like a DSN: the report part is plain header fields, and the returned message (or its
 * headers) carries the Message-ID we gave the original. `not-spam` reports are not complaints.
 */
export function parseComplaint(raw: Buffer, parsed: ParsedMessage): ComplaintReport | null {
  const ct = (parsed.contentType ?? "").toLowerCase();
  if (!ct.startsWith("multipart/report") || !ct.includes("feedback-report")) return null;
  const text = raw.toString("latin1").replace(/\r?\n[ \t]+/g, " ");
  const feedbackType = /^Feedback-Type:\s*([\w-]+)/im.exec(text)?.[1].toLowerCase();
  if (!feedbackType || feedbackType === "not-spam") return null;
  const recipients = new Set<string>();
  for (const m of text.matchAll(/^Original-Rcpt-To:\s*<?([^>\s]+@[^>\s]+)>?/gim)) {
    recipients.add(m[1].toLowerCase());
    if (recipients.size === MAX_RECIPIENTS) break;
  }
  return { feedbackType, recipients: [...recipients], citedIds: citedIds(text, parsed.messageId) };
}
