import { env } from "@/lib/env";
import { isTrustedOrigin } from "@/lib/settings/remote-access";
import type { ApiRequest } from "@/lib/http/api-request";

/** The address failures are throttled by. X-Forwarded-For only counts behind a configured proxy. */
export function clientIp(req: Pick<ApiRequest, "headers">): string {
  if (env().TRUST_PROXY) {
    const fwd = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (fwd) return fwd;
  }
  return req.headers.get("x-brynth-remote-address") ?? "unknown";
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
