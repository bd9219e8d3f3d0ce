import type { SMTPServerSession } from "smtp-server";

/**
 * Open connections per client address. smtp-server caps the whole instance (maxClients) but not one address, so a
 * single host could take every slot. `admit` counts a session in, or says no when its address is at the cap; `release`
 * counts it out when it closes (only sessions that were admitted, so a refused one frees nothing).
 */
export function addressLimit(max: number) {
  const open = new Map<string, number>();
  const admitted = new Map<string, string>();
  return {
    admit(session: SMTPServerSession): boolean {
      const n = open.get(session.remoteAddress) ?? 0;
      if (n >= max) return false;
      open.set(session.remoteAddress, n + 1);
      admitted.set(session.id, session.remoteAddress);
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
