/**
 * Whether a failed relay transaction may still have delivered: the connection broke (or timed out) after the
 * message body was sent and before the relay's final answer. nodemailer names the command it was waiting on; the
 * body's end is answered to the `DATA` stream (`command: "DATA"` or, once streaming, no 3xx/2xx ever arrives).
 * Retrying such a send could deliver it twice, so it becomes `unknown` for the owner instead.
 */
export function mayHaveBeenAccepted(err: unknown): boolean {
  const e = err as { code?: string; command?: string; responseCode?: number };
  if (e.responseCode) return false;
  const lost = e.code === "ECONNECTION" || e.code === "ETIMEDOUT" || e.code === "ESOCKET" || e.code === "EPIPE" || e.code === "ECONNRESET";
  return lost && (e.command === "DATA" || e.command === "dataEnd" || e.command === "data");
}
