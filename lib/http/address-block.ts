import { isIP } from "node:net";
import { mappedIPv4 } from "@/lib/http/outbound-address";

/**
 * The block one client controls, as the per-address connection cap counts it: an IPv4 address itself (an IPv4-mapped
 * IPv6 address counts as the IPv4 address it maps to), and an IPv6 address's /64, since every host is handed a whole
 * /64 and could otherwise open the cap's worth of connections from each of its 2^64 addresses.
 */
export function addressBlock(address: string): string {
  if (isIP(address) !== 6) return address;
  const v4 = mappedIPv4(address);
  if (v4) return v4;
  const bare = address.split("%", 1)[0].toLowerCase();
  const groups = (part: string) => (part ? part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : []);
  const [head, tail] = bare.split("::");
  const full =
    tail === undefined ? groups(head) : [...groups(head), ...(Array(8 - groups(head).length - groups(tail).length).fill("0") as string[]), ...groups(tail)];
  return `${full
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
