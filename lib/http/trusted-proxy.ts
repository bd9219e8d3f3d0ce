import { env } from "@/lib/env";
import { cachedMatcher } from "@/lib/http/address-list";

const matches = cachedMatcher();

/**
 * Whether the peer of a connection (its socket address) is a reverse proxy whose X-Forwarded-For and
 * X-Forwarded-Host we believe: one of TRUST_PROXY's addresses or ranges (`true` means loopback and private networks,
 * where a proxy beside the app or on its container network connects from). Believed from any peer, a client that
 * reached the app's port directly (HOST is 0.0.0.0 by default) named a fresh address on each attempt and was never
 * throttled.
 */
export function isTrustedProxy(remote: string | null | undefined): boolean {
  const trusted = env().TRUST_PROXY;
  return trusted !== false && !!remote && matches(trusted, remote);
}
