import { createHmac } from "node:crypto";

/** The Standard Webhooks headers a delivery carries; a custom header can never replace one (design §2.10 e). */
export const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the secret's decoded bytes (Standard Webhooks): what
 * the `standardwebhooks` package's verify() checks. Signed with node:crypto, not that package's pure-JS HMAC: a
 * delivery lane signs hundreds a second.
 */
export function webhookSignature(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampS}.${body}`).digest("base64")}`;
}

/**
 * The three signature headers of one attempt: `webhook-id` is the event's id (the same on every retry and resend,
 * so receivers drop repeats), the timestamp is the moment of sending (a retry a day later still passes a verifier's
 * 5-minute tolerance), and during a rotation overlap both secrets sign, space-separated, newest first.
 */
export function signWebhook(o: { id: string; body: string; secrets: readonly string[]; at?: Date }): Record<(typeof SIGNATURE_HEADERS)[number], string> {
  const ts = Math.floor((o.at ?? new Date()).getTime() / 1000);
  return {
    "webhook-id": o.id,
    "webhook-timestamp": String(ts),
    "webhook-signature": o.secrets.map((s) => webhookSignature(s, o.id, ts, o.body)).join(" "),
  };
}
