import { domainToASCII } from "node:url";
import { authenticate } from "mailauth";
import type { MailAuthVerdicts } from "@/lib/db/schema/mail";
import type { MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";
import { fromDisagreement, undersizedPass } from "@/lib/mail/inbound/from-agreement";

/**
 * SPF, DKIM and DMARC computed here with mailauth from the SMTP session (client IP, HELO, MAIL FROM) and the
 * message. Any Authentication-Results header the sender put in is ignored: only these verdicts are stored.
 * A DNS failure gives `temperror` verdicts, never a refused message. DMARC stands only for the From shown
 * (`from`, the parsed sender) and only on a signature that covers the whole body (from-agreement.ts): otherwise it
 * is `fail`, and DKIM resting on unsigned text is `policy` (RFC 8601), each with the reason first in `details`.
 */
export async function authenticateMessage(
  raw: Buffer,
  opts: { ip: string; helo: string | null; sender: string | null; from: string | null; resolver: MailDnsResolver },
): Promise<MailAuthVerdicts> {
  try {
    const res = await authenticate(raw, {
      ip: opts.ip,
      helo: opts.helo ?? undefined,
      sender: asciiSender(opts.sender ?? ""),
      mta: mailHostname(),
      resolver: opts.resolver,
      disableArc: true,
      disableBimi: true,
    });
    const results = res.dkim?.results ?? [];
    const passes = results.filter((r) => r.status?.result === "pass");
    const passing = passes.find((r) => !r.status?.underSized) ?? passes[0];
    const dmarc = res.dmarc || null;
    const problem =
      fromDisagreement(res.dkim?.headerFrom ?? [], opts.from) ??
      (dmarc?.status?.result === "pass"
        ? undersizedPass({ unsignedBytes: Number(dmarc.alignment?.dkim?.underSized ?? 0), spfAligned: Boolean(dmarc.alignment?.spf?.result) })
        : null);
    return {
      spf: (res.spf && res.spf.status?.result) || "none",
      dkim: !passing ? (results[0]?.status?.result ?? "none") : passing.status?.underSized ? "policy" : "pass",
      dmarc: problem ? "fail" : dmarc?.status?.result || "none",
      dkim_domain: passing?.signingDomain ?? null,
      details: `${problem ? `brynth: ${problem}\n` : ""}${(res.headers ?? "").trim()}`.slice(0, 4000),
    };
  } catch (err) {
    return {
      spf: "temperror",
      dkim: "temperror",
      dmarc: "temperror",
      details: `authentication failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500),
    };
  }
}

/**
 * The SMTP server hands over an IDN envelope sender in Unicode (`info@bücher.example`), and mailauth's SPF gives a
 * domain it cannot look up `none` without asking DNS: a sender of an IDN domain never passed SPF. Its ASCII form
 * is the same domain, and what DNS holds.
 */
function asciiSender(sender: string): string {
  const at = sender.lastIndexOf("@");
  const domain = sender.slice(at + 1);
  return /[^\p{ASCII}]/u.test(domain) ? `${sender.slice(0, at + 1)}${domainToASCII(domain) || domain}` : sender;
}

/** Our own mailboxes delivering to each other: signed by us, no hop to check. */
export const localVerdicts = (): MailAuthVerdicts => ({ spf: "pass", dkim: "pass", dmarc: "pass", local: true, details: "delivered locally by this instance" });
