import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";

let cached: { key: string; list: BlockList } | undefined;

/** Whether an SMTP client is one of TRUSTED_RELAYS (IPs or CIDRs, validated by lib/env.ts). IPv4-mapped IPv6 counts as IPv4. */
export function isTrustedRelay(ip: string): boolean {
  const entries = env().TRUSTED_RELAYS;
  if (entries.length === 0) return false;
  const key = entries.join(",");
  if (cached?.key !== key) cached = { key, list: blockList(entries) };
  const addr = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(addr);
  if (family === 0) return false;
  return cached.list.check(addr, family === 4 ? "ipv4" : "ipv6");
}

function blockList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const e of entries) {
    const [ip, bits] = e.split("/");
    const type = isIP(ip) === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  return list;
}
