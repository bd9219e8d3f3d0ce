import type { MailAuthVerdicts } from "@/lib/db/schema/mail";

/** One domain is the other, or a parent or subdomain of it: fbl.yahoo.com reports about yahoo.com users. */
const related = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

/**
 * Of the recipients a spam complaint (ARF) names, those it may put on the send block list. Anyone who got one of our
 * messages knows its Message-ID and can send a report naming another recipient: believed as it came, a bcc'd
 * recipient could block the others. A report counts when it came through a trusted relay (TRUSTED_RELAYS: a relay
 * provider forwards its feedback loop), or for a recipient whose own domain (or a parent or subdomain of it) the
 * report is authenticated for: a passing DKIM signature, or DMARC on its From. Mail between this instance's own
 * mailboxes authenticates nobody.
 */
export function trustedComplainers(candidates: readonly string[], o: { auth: MailAuthVerdicts; from: string | null; trustedRelay: boolean }): string[] {
  if (o.trustedRelay) return [...candidates];
  if (o.auth.local) return [];
  const vouched = [
    o.auth.dkim === "pass" ? o.auth.dkim_domain : null,
    o.auth.dmarc === "pass" && o.from ? o.from.slice(o.from.lastIndexOf("@") + 1) : null,
  ].flatMap((d) => (d ? [d.toLowerCase()] : []));
  return candidates.filter((address) => vouched.some((d) => related(d, address.slice(address.lastIndexOf("@") + 1).toLowerCase())));
}
