import type { ParsedMessage } from "@/lib/mail/inbound/parse-message";

export interface DsnReport {
  /** Per failed or delayed recipient, from the message/delivery-status part (RFC 3464). */
  recipients: Array<{ recipient: string | null; action: string; status: string | null; diagnostic: string | null }>;
  /** Message-IDs quoted in the report (the returned message or its headers), without brackets. */
  citedIds: string[];
}

/**
 * A genuine report returns one message, and a delivery of ours has at most a send's 50 recipients. A report may
 * name more only to cost us: each cited id is a query parameter (a report quoting 70,000 ids left the statement,
 * its SMTP transaction and a commit slot waiting for good) and each recipient a statement. The first ones count.
 */
const MAX_CITED_IDS = 20;
const MAX_RECIPIENTS = 100;

/**
 * A delivery status notification (multipart/report; report-type=delivery-status), or null. Read from the raw text:
 * the status part is 7-bit by definition, and the returned headers carry the Message-ID we gave the original.
 * A recipient reported twice counts once (the first report of it).
 */
export function parseDsn(raw: Buffer, parsed: ParsedMessage): DsnReport | null {
  const ct = (parsed.contentType ?? "").toLowerCase();
  if (!ct.startsWith("multipart/report") || !ct.includes("delivery-status")) return null;
  const text = raw.toString("latin1").replace(/\r?\n[ \t]+/g, " ");
  const recipients: DsnReport["recipients"] = [];
  const seen = new Set<string | null>();
  // Per-recipient groups start at Final-Recipient (required, RFC 3464 §2.3) and hold Action / Status / Diagnostic-Code.
  const groups = text.split(/^(?=Final-Recipient:)/im).slice(1);
  for (const g of groups) {
    if (recipients.length === MAX_RECIPIENTS) break;
    const field = (name: string) => g.match(new RegExp(`^${name}:\\s*(.+)$`, "im"))?.[1].trim() ?? null;
    const action = field("Action")?.toLowerCase();
    if (!action) continue;
    const rcpt = field("Final-Recipient");
    const recipient = rcpt ? rcpt.replace(/^rfc822\s*;\s*/i, "").trim() : null;
    if (seen.has(recipient?.toLowerCase() ?? null)) continue;
    seen.add(recipient?.toLowerCase() ?? null);
    recipients.push({ recipient, action, status: field("Status"), diagnostic: field("Diagnostic-Code")?.slice(0, 1000) ?? null });
  }
  return { recipients, citedIds: citedIds(text, parsed.messageId) };
}

/** The Message-IDs a report (DSN or ARF) quotes, but its own, each once, the first MAX_CITED_IDS of them. */
export function citedIds(text: string, own: string | null): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/^Message-ID:\s*<([^>\s]+)>/gim)) {
    if (m[1] !== own) ids.add(m[1]);
    if (ids.size === MAX_CITED_IDS) break;
  }
  return [...ids];
}

/** A report that says delivery failed for good (not merely delayed or relayed). */
export const isFailure = (r: DsnReport["recipients"][number]) => r.action === "failed" || (r.status ?? "").startsWith("5.");
