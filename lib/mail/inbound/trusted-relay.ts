import { env } from "@/lib/env";
import { cachedMatcher } from "@/lib/http/address-list";

const matches = cachedMatcher();

/** Whether an SMTP client is one of TRUSTED_RELAYS (IPs or CIDRs, validated by lib/env.ts). IPv4-mapped IPv6 counts as IPv4. */
export function isTrustedRelay(ip: string): boolean {
  const entries = env().TRUSTED_RELAYS;
  return entries.length > 0 && matches(entries, ip);
}
