import { addressBlock } from "@/lib/http/address-block";

/**
 * Open connections per client address (an IPv6 client's whole /64, address-block.ts), for the SMTP listener and the
 * HTTP server: each caps the whole instance but not one address, so a single host could take every slot. `admit`
 * counts a connection in under its holder (the SMTP session's id, the HTTP socket), or says no when its address is
 * at the cap; `release` counts it out when it closes (only admitted ones, so a refused one frees nothing).
 */
export function addressLimit<H>(max: number) {
  const open = new Map<string, number>();
  const admitted = new Map<H, string>();
  return {
    admit(holder: H, remoteAddress: string): boolean {
      const block = addressBlock(remoteAddress);
      const n = open.get(block) ?? 0;
      if (n >= max) return false;
      open.set(block, n + 1);
      admitted.set(holder, block);
      return true;
    },
    release(holder: H) {
      const block = admitted.get(holder);
      if (block === undefined) return;
      admitted.delete(holder);
      const n = (open.get(block) ?? 1) - 1;
      if (n > 0) open.set(block, n);
      else open.delete(block);
    },
  };
}
