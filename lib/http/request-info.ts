import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import { isTrustedProxy } from "@/lib/http/trusted-proxy";
import { isTrustedOrigin } from "@/lib/settings/remote-access";
import type { ApiRequest } from "@/lib/http/api-request";

/** The client address, from the socket only: a header of that name sent by a client is replaced first. */
export function stampRemoteAddress(req: IncomingMessage) {
  req.headers["x-brynth-remote-address"] = req.socket.remoteAddress ?? "unknown";
}

/**
 * The address failures are throttled by (and an owner session records). X-Forwarded-For only counts on a connection
 * from a trusted proxy (isTrustedProxy), and only its last entry: the proxy appends the address that connected to
 * it, while every entry before that is whatever the client sent. Taking the first let any client name a fresh
 * address on each attempt — no throttle on guessing, and a throttle map growing by one client-chosen string per
 * failure. A proxy that writes `ip:port` has the port dropped (read whole, every client was the proxy's own
 * address, throttled as one); a last entry that is not an IP address counts as the proxy's own.
 */
export function clientIp(req: Pick<ApiRequest, "headers">): string {
  const remote = req.headers.get("x-brynth-remote-address") ?? "unknown";
  if (isTrustedProxy(remote)) {
    const forwarded = req.headers.get("x-forwarded-for");
    const last = withoutPort(forwarded?.split(",").pop()?.trim() ?? "");
    if (last && isIP(last)) return last;
    if (forwarded === null) warnNoForwardedFor(remote);
  }
  return remote;
}

/** `203.0.113.7:51234` and `[2001:db8::1]:51234` as some proxies write them, to the address. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1];
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4 ? v4[1] : entry;
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
