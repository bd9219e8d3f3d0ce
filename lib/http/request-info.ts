import { isIP } from "node:net";
import { env } from "@/lib/env";
import { isTrustedOrigin } from "@/lib/settings/remote-access";
import type { ApiRequest } from "@/lib/http/api-request";

/**
 * The address failures are throttled by (and an owner session records). X-Forwarded-For only counts behind a
 * configured proxy, and only its last entry: the proxy appends the address that connected to it, while every entry
 * before that is whatever the client sent. Taking the first let any client name a fresh address on each attempt —
 * no throttle on guessing, and a throttle map growing by one client-chosen string per failure. A last entry that is
 * not an IP address counts as the proxy's own.
 */
export function clientIp(req: Pick<ApiRequest, "headers">): string {
  const remote = req.headers.get("x-brynth-remote-address") ?? "unknown";
  if (env().TRUST_PROXY) {
    const forwarded = req.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").pop()?.trim();
    if (last && isIP(last)) return last;
    if (forwarded === null) warnNoForwardedFor(remote);
  }
  return remote;
}

const g = globalThis as { __brynthWarnedNoForwardedFor?: boolean };

/**
 * Once a process: TRUST_PROXY with a proxy that does not send X-Forwarded-For makes every client the proxy's
 * address, so one client's failed attempts throttle them all (and the owner's sign-in with them). Nothing else
 * would tell the operator why everyone was locked out at once.
 */
function warnNoForwardedFor(remote: string): void {
  if (g.__brynthWarnedNoForwardedFor) return;
  g.__brynthWarnedNoForwardedFor = true;
  console.warn(
    `[brynth] TRUST_PROXY is set, but a request from ${remote} came without X-Forwarded-For, so it counts as that address. If ${remote} is your proxy, have it set X-Forwarded-For: until then every client behind it shares one throttle of failed attempts. If nothing proxies, unset TRUST_PROXY.`,
  );
}

const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * Origins a browser may call us from: the public URL, loopback (any port: local tools and proxies), and
 * ALLOWED_ORIGINS. A request's own Host is deliberately not trusted: under DNS rebinding the attacker's name points
 * at us and Host matches Origin, so only names we know are accepted.
 */
export function isAllowedOrigin(origin: string | null): boolean {
  if (!origin) return true;
  return isTrustedOrigin(origin) || LOOPBACK_ORIGIN.test(origin);
}
