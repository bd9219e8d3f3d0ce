import type { ParsedMessage } from "@/lib/mail/inbound/parse-message";

export interface DsnReport {
  /** Per failed or delayed recipient, from the message/delivery-status part (RFC 3464). */
  recipients: Array<{ recipient: string | null; action: string; status: string | null; diagnostic: string | null }>;
  /** Message-IDs quoted in the report (the returned message or its headers), without brackets. */
  citedIds: string[];
}

/**
 * A delivery status notification (multipart/report; report-type=delivery-status), or null. Read from the raw text:
 * the status part is 7-bit by definition, and the returned headers carry the Message-ID we gave the original.
 */
export function parseDsn(raw: Buffer, parsed: ParsedMessage): DsnReport | null {
  const ct = (parsed.contentType ?? "").toLowerCase();
  if (!ct.startsWith("multipart/report") || !ct.includes("delivery-status")) return null;
  const text = raw.toString("latin1").replace(/\r?\n[ \t]+/g, " ");
  const recipients: DsnReport["recipients"] = [];
  // Per-recipient groups start at Final-Recipient (required, RFC 3464 §2.3) and hold Action / Status / Diagnostic-Code.
  const groups = text.split(/^(?=Final-Recipient:)/im).slice(1);
  for (const g of groups) {
    const field = (name: string) => g.match(new RegExp(`^${name}:\\s*(.+)$`, "im"))?.[1].trim() ?? null;
    const action = field("Action")?.toLowerCase();
    if (!action) continue;
    const rcpt = field("Final-Recipient");
    recipients.push({
      recipient: rcpt ? rcpt.replace(/^rfc822\s*;\s*/i, "").trim() : null,
      action,
      status: field("Status"),
      diagnostic: field("Diagnostic-Code")?.slice(0, 1000) ?? null,
    });
  }
  const own = parsed.messageId;
  const citedIds = [...text.matchAll(/^Message-ID:\s*<([^>\s]+)>/gim)].map((m) => m[1]).filter((id) => id !== own);
  return { recipients, citedIds: [...new Set(citedIds)] };
}

/** A report that says delivery failed for good (not merely delayed or relayed). */
export const isFailure = (r: DsnReport["recipients"][number]) => r.action === "failed" || (r.status ?? "").startsWith("5.");
