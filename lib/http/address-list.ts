import { BlockList, isIP } from "node:net";

/**
 * A test for membership in a list of IP addresses and CIDR ranges (validated by lib/env.ts), built once per list.
 * An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, how a dual-stack socket reports an IPv4 peer) counts as IPv4.
 */
export function addressMatcher(entries: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const e of entries) {
    const [ip, bits] = e.split("/");
    const type = isIP(ip) === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  return (ip) => {
    const addr = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(addr);
    return family !== 0 && list.check(addr, family === 4 ? "ipv4" : "ipv6");
  };
}

/** Memoises a matcher on its list's contents: env() may be re-read (tests change it), the list rarely changes. */
export function cachedMatcher(): (entries: readonly string[], ip: string) => boolean {
  let cached: { key: string; matches: (ip: string) => boolean } | undefined;
  return (entries, ip) => {
    const key = entries.join(",");
    if (cached?.key !== key) cached = { key, matches: addressMatcher(entries) };
    return cached.matches(ip);
  };
}
