import { domainToASCII } from "node:url";
import { z } from "zod";
import { env } from "@/lib/env";

/** The instance's default mail domain (MAIL_DOMAIN). */
export const defaultMailDomain = () => env().MAIL_DOMAIN;

/** Host name this server answers as (EHLO, MX target): MAIL_HOSTNAME, else the PUBLIC_URL host. */
export const mailHostname = () => env().MAIL_HOSTNAME ?? new URL(env().publicUrl).hostname;

/**
 * A domain as this instance stores it (domainName below): IDNA's ASCII form, lower case. Addresses arrive in other
 * spellings — smtp-server hands RCPT TO's domain over in Unicode whatever the client sent, and agents write
 * `bücher.example` — and every lookup of "is this ours" compares this form. What is no domain name stays as written.
 */
export const asciiDomain = (domain: string) => domainToASCII(domain) || domain.toLowerCase();

/** An address as mailboxes store it: lower case, its domain in ASCII form (asciiDomain). */
export function asciiAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf("@");
  return at <= 0 || at === a.length - 1 ? a : `${a.slice(0, at)}@${asciiDomain(a.slice(at + 1))}`;
}

/** A domain an owner may add: lower-case ASCII labels (IDNs in their xn-- form), at least two labels. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "must be a domain name like example.com (IDNs in xn-- form)")
  // A top-level label is never all digits (RFC 3696 §2): `127.0.0.1` is an address, which no DNS record verifies.
  .refine((d) => !/(^|\.)\d+$/.test(d), "must be a domain name like example.com, not an IP address");
