import { authenticate } from "mailauth";
import type { MailAuthVerdicts } from "@/lib/db/schema/mail";
import type { MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";

/**
 * SPF, DKIM and DMARC computed here with mailauth from the SMTP session (client IP, HELO, MAIL FROM) and the
 * message. Any Authentication-Results header the sender put in is ignored: only these verdicts are stored.
 * A DNS failure gives `temperror` verdicts, never a refused message.
 */
export async function authenticateMessage(
  raw: Buffer,
  opts: { ip: string; helo: string | null; sender: string | null; resolver: MailDnsResolver },
): Promise<MailAuthVerdicts> {
  try {
    const res = await authenticate(raw, {
      ip: opts.ip,
      helo: opts.helo ?? undefined,
      sender: opts.sender ?? "",
      mta: mailHostname(),
      resolver: opts.resolver,
      disableArc: true,
      disableBimi: true,
    });
    const results = res.dkim?.results ?? [];
    const passing = results.find((r) => r.status?.result === "pass");
    return {
      spf: (res.spf && res.spf.status?.result) || "none",
      dkim: passing ? "pass" : (results[0]?.status?.result ?? "none"),
      dmarc: (res.dmarc && res.dmarc.status?.result) || "none",
      dkim_domain: passing?.signingDomain ?? null,
      details: (res.headers ?? "").trim().slice(0, 4000),
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

/** Our own mailboxes delivering to each other: signed by us, no hop to check. */
export const localVerdicts = (): MailAuthVerdicts => ({ spf: "pass", dkim: "pass", dmarc: "pass", local: true, details: "delivered locally by this instance" });
