import type { SMTPServerSession } from "smtp-server";
import { addressBlock } from "@/lib/http/address-block";

/**
 * Open connections per client address (an IPv6 client's whole /64, address-block.ts). smtp-server caps the whole
 * instance (maxClients) but not one address, so a single host could take every slot. `admit` counts a session in, or says no when its address is at the cap; `release`
 * counts it out when it closes (only sessions that were admitted, so a refused one frees nothing).
 */
export function addressLimit(max: number) {
  const open = new Map<string, number>();
  const admitted = new Map<string, string>();
  return {
    admit(session: SMTPServerSession): boolean {
      const block = addressBlock(session.remoteAddress);
      const n = open.get(block) ?? 0;
      if (n >= max) return false;
      open.set(block, n + 1);
      admitted.set(session.id, block);
      return true;
    },
    release(session: SMTPServerSession) {
      const address = admitted.get(session.id);
      if (address === undefined) return;
      admitted.delete(session.id);
      const n = (open.get(address) ?? 1) - 1;
      if (n > 0) open.set(address, n);
      else open.delete(address);
    },
  };
}
