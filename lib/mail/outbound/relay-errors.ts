/**
 * Whether a failed relay transaction may still have delivered: the whole body went out (`bodySent`, seen by
 * sendRaw in relay-transport.ts) and then the connection broke or timed out before the relay's final answer.
 * The error alone cannot tell: nodemailer reports every lost connection as `ECONNECTION` with `command: "CONN"`,
 * whether it dropped at the greeting, at RCPT or after the final dot (checked against a sink that drops after
 * DATA, send-relay.test.ts). A drop before the body ended is safe to retry, since the relay never saw the final dot;
 * after it, a retry could deliver twice, so the delivery becomes `unknown` for the owner instead. Any reply code
 * means the relay answered, so it did not silently take the message.
 */
export function mayHaveBeenAccepted(err: unknown, o: { bodySent: boolean }): boolean {
  const e = err as { code?: string; responseCode?: number };
  if (!o.bodySent || e.responseCode) return false;
  // EABORT: our own deadline (or a shutdown) cut the connection while the relay's answer was still coming.
  return ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EPIPE", "ECONNRESET", "EABORT"].includes(e.code ?? "");
}
