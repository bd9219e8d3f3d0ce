import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";

/**
 * Addresses outbound requests to user URLs must never reach: private, loopback, link-local (cloud metadata at
 * 169.254.169.254 and fd00:ec2::254), CGNAT, multicast, reserved, and the IPv6 forms that embed an IPv4 address:
 * mapped (judged by that address), IPv4-compatible (::/96), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48, a
 * translator inside the network), Teredo (2001::/32) and 6to4 (2002::/16, blocked where it embeds a blocked IPv4
 * address: 2002:7f00:1:: is 127.0.0.1, 2002:a9fe:a9fe:: the metadata address).
 */
// Two lists: one BlockList checks IPv4 addresses against IPv4-mapped IPv6 rules too, so ::ffff:0:0/96 would block
// every IPv4 address.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked4.addSubnet(net, bits, "ipv4");
  const [a, b, c, d] = net.split(".").map(Number);
  blocked6.addSubnet(`2002:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::`, 16 + bits, "ipv6");
}
for (const [net, bits] of [
  ["::", 96],
  ["::ffff:0:0", 96],
  // IPv4-translated (SIIT, RFC 6145): reaches its embedded IPv4 address through a translator, as NAT64 does.
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:2::", 48],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["5f00::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked6.addSubnet(net, bits, "ipv6");
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // ::ffff:10.0.0.1 and friends reach the IPv4 address they map to: judge that one.
    const v4 = mappedIPv4(address);
    if (v4) return blocked4.check(v4, "ipv4");
    return blocked6.check(address, "ipv6");
  }
  return blocked4.check(address, "ipv4");
}

/**
 * The IPv4 address an IPv4-mapped IPv6 address (::ffff:0:0/96) stands for, in any spelling: `::ffff:8.8.8.8`,
 * `::ffff:808:808`, `0:0:0:0:0:ffff:0808:0808`. The URL parser writes every spelling in its one canonical form, the
 * hex one, which is why URLs need this.
 */
export function mappedIPv4(address: string): string | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname;
  } catch {
    return null; // zone ids (fe80::1%eth0) and the like: not mapped addresses
  }
  const m = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!m) return null;
  const hi = Number.parseInt(m[1], 16);
  const lo = Number.parseInt(m[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** A URL's host as the checks compare it: no IPv6 brackets, lower case, no trailing dot (`localhost.` is `localhost`). */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
}

/** `host` or `host:port` listed in OUTBOUND_ALLOW_HOSTS: may be private and plain http (tests, local receivers). */
export function isAllowedTestHost(url: URL): boolean {
  const allowed = env().OUTBOUND_ALLOW_HOSTS;
  const host = hostOf(url);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowed.some((a) => a.toLowerCase() === host || a.toLowerCase() === `${host}:${port}`);
}

/**
 * Ports no user URL may target even on a public host (design §2.10 d): SMTP submission and relay, POP3, IMAP and
 * Redis, which a POST with attacker-chosen headers could otherwise talk to.
 */
const REFUSED_PORTS = new Set(["25", "465", "587", "110", "143", "6379"]);

/**
 * Why a user-supplied URL may not be called, judged without DNS: scheme, credentials, refused ports, and literal
 * addresses or local names. Names that resolve to blocked addresses are refused again at connect time (safe-fetch.ts).
 */
export function outboundUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  const testHost = isAllowedTestHost(url);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && testHost)) return "must be an https URL";
  if (url.username || url.password) return "must not carry credentials";
  if (REFUSED_PORTS.has(url.port)) return `must not use port ${url.port} (mail and database ports are refused)`;
  if (testHost) return null;
  const host = hostOf(url);
  // An address literal is judged by the address alone (an IPv6 one has no dot, and need not).
  if (isIP(host)) return isBlockedAddress(host) ? "must not point to a private, loopback or link-local address" : null;
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal") || !host.includes(".")) {
    return "must name a public host";
  }
  return null;
}
