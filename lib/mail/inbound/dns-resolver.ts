import { promises as dns } from "node:dns";
import { env } from "@/lib/env";

/** mailauth's resolver shape: `dns.promises.resolve` semantics (ENOTFOUND / ENODATA errors mean "no record"). */
export type MailDnsResolver = (name: string, rrtype: string) => Promise<string[][] | string[]>;

const g = globalThis as { __brynthMailResolver?: MailDnsResolver };

/** The system resolver with one try and MAIL_DNS_TIMEOUT_MS, so a dead DNS server cannot stall the SMTP session. */
export function defaultMailResolver(): MailDnsResolver {
  if (!g.__brynthMailResolver) {
    const resolver = new dns.Resolver({ timeout: env().MAIL_DNS_TIMEOUT_MS, tries: 1 });
    g.__brynthMailResolver = (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
  }
  return g.__brynthMailResolver;
}
