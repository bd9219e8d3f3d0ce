import type { MailAuthVerdicts, messageCategories } from "@/lib/db/schema/mail";

export type MessageCategory = (typeof messageCategories)[number];

/**
 * Why an inbound message is kept out of default lists, in order of precedence (design §4 A "Data model"):
 * - `blocked`: the mailbox's or project's allow/block lists refused the sender;
 * - `unauthenticated`: DMARC failed, or SPF or DKIM failed outright with nothing else passing, or nothing passed
 *   at all. Mail between this instance's own mailboxes (`local`) has no hop to check and never is;
 * - `spam`: a trusted relay (TRUSTED_RELAYS) said so in `X-Spam-Flag`/`X-Spam-Status`. There is no classifier of
 *   our own: from anyone else the header is ignored;
 * - `normal` otherwise.
 */
export function categorizeInbound(o: { blocked: boolean; auth: MailAuthVerdicts; spamFlagged: boolean; trustedRelay: boolean }): MessageCategory {
  if (o.blocked) return "blocked";
  if (!o.auth.local && unauthenticated(o.auth)) return "unauthenticated";
  if (o.spamFlagged && o.trustedRelay) return "spam";
  return "normal";
}

/** What would make mail `unauthenticated` were it not blocked first: the Quarantine screen names both reasons. */
export const failsAuthentication = (a: MailAuthVerdicts | null) => a !== null && !a.local && unauthenticated(a);

function unauthenticated(a: MailAuthVerdicts): boolean {
  if (a.dmarc === "fail") return true;
  const anyPass = a.spf === "pass" || a.dkim === "pass" || a.dmarc === "pass";
  if (!anyPass) return true;
  return (a.spf === "fail" && a.dkim !== "pass") || (a.dkim === "fail" && a.spf !== "pass");
}

/** The labels an inbound message starts with: `received`, `unread`, and its category unless it is normal. */
export function inboundLabels(category: MessageCategory): string[] {
  return category === "normal" ? ["received", "unread"] : ["received", "unread", category];
}
