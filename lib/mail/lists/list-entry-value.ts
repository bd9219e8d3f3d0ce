import { z } from "zod";

/**
 * What an allow/block entry may be (design §1.4 "Allow and block lists"): an address or a domain, stored lower case
 * and in ASCII, because the inbound matcher compares the sender's address and its parent domains byte for byte. An
 * IDN is refused rather than converted: the agent learns the stored form instead of finding a different string.
 */

const label = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";
const domainPattern = new RegExp(`^(${label}\\.)+${label}$`);
/** RFC 5322 dot-atom, the form of every address an SMTP sender can have without quoting. */
const localPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

export function listEntryProblem(entry: string): string | null {
  if (/\P{ASCII}/u.test(entry)) return "is not ASCII: use the xn-- form of an internationalized domain (e.g. xn--mnchen-3ya.de)";
  if (entry.length > 254) return "must be at most 254 characters";
  const at = entry.lastIndexOf("@");
  if (at === -1) return domainPattern.test(entry) && entry.length <= 253 ? null : "must be an email address or a domain like example.com";
  const local = entry.slice(0, at);
  const domain = entry.slice(at + 1);
  if (!local || local.length > 64 || !localPattern.test(local) || !domainPattern.test(domain)) return "must be an email address or a domain like example.com";
  return null;
}

export const entryTypeOf = (entry: string): "email" | "domain" => (entry.includes("@") ? "email" : "domain");

/** Trimmed and lower-cased first, so `Bob@Example.COM` and `bob@example.com` are one entry. */
export const listEntryField = z
  .string()
  .trim()
  .toLowerCase()
  // No .min(1): an empty entry is "not an address or a domain", reported once by the refinement.
  .superRefine((entry, ctx) => {
    const problem = listEntryProblem(entry);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: entry });
  })
  .describe("An email address (`bob@example.com`) or a domain (`example.com`, which also covers its subdomains); lower-cased, ASCII (IDNs in xn-- form).");
