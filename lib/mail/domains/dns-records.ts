import type { MailDomain } from "@/lib/db/schema/mail";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";

export type RecordKind = "MX" | "SPF" | "DKIM" | "DMARC";

export interface DnsRecord {
  kind: RecordKind;
  type: "MX" | "TXT";
  name: string;
  value: string;
  why: string;
}

export const dkimRecordName = (d: Pick<MailDomain, "domain" | "dkimSelector">) => `${d.dkimSelector}._domainkey.${d.domain}`;
export const dkimRecordValue = (d: Pick<MailDomain, "dkimPublicKey">) => `v=DKIM1; k=rsa; p=${d.dkimPublicKey}`;

/** What the owner publishes for a domain so mail reaches Brynth and Brynth's mail is trusted. */
export function dnsRecords(d: Pick<MailDomain, "domain" | "dkimSelector" | "dkimPublicKey">): DnsRecord[] {
  return [
    {
      kind: "MX",
      type: "MX",
      name: d.domain,
      value: `10 ${mailHostname()}.`,
      why: "Mail for the domain is delivered to this server (port 25 forwarded to SMTP_PORT).",
    },
    {
      kind: "SPF",
      type: "TXT",
      name: d.domain,
      value: "v=spf1 mx ~all",
      why: "Says which hosts send for the domain; add your relay's include: (e.g. include:_spf.example.net) before ~all.",
    },
    {
      kind: "DKIM",
      type: "TXT",
      name: dkimRecordName(d),
      value: dkimRecordValue(d),
      why: "The public half of the key Brynth signs outbound mail with. Publishing it verifies the domain.",
    },
    {
      kind: "DMARC",
      type: "TXT",
      name: `_dmarc.${d.domain}`,
      value: "v=DMARC1; p=none; adkim=r; aspf=r",
      why: "Tells receivers how to treat mail failing SPF and DKIM; tighten p= to quarantine once all is green.",
    },
  ];
}
