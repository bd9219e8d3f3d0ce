import { fail, hmacSha256, looksDuplicated, matchesAny, OK, withinTolerance, type Verdict } from "@/lib/sources/verify/hmac";

/**
 * `whsec_<base64>`, or the base64 alone as the standard's own libraries also take it → key bytes; null when the
 * secret is not base64 (checked when the source is added).
 */
export function standardWebhooksKey(secret: string): Buffer | null {
  const b64 = secret.startsWith("whsec_") ? secret.slice(6) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  const key = Buffer.from(b64, "base64");
  return key.length > 0 ? key : null;
}

/**
 * The header of a Standard Webhooks part as this delivery names it: providers hosted by Svix send `svix-id`,
 * `svix-timestamp` and `svix-signature`, the standard `webhook-*`; both sign alike, and Svix's own verifier reads the
 * `svix-*` one first. Reading only `webhook-*` refused every Svix-hosted provider's delivery (401).
 */
export function standardHeaderName(headers: Pick<Headers, "get">, part: "id" | "timestamp" | "signature"): string {
  return headers.get(`svix-${part}`) !== null ? `svix-${part}` : `webhook-${part}`;
}

/**
 * Standard Webhooks (Svix): HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, base64, in
 * `webhook-signature` as space-separated `v1,<sig>` entries (several while a secret rotates).
 */
export function verifyStandardWebhooks(body: Uint8Array, headers: Pick<Headers, "get">, secrets: string[], nowS: number): Verdict {
  const id = headers.get(standardHeaderName(headers, "id"));
  const timestamp = headers.get(standardHeaderName(headers, "timestamp"));
  const signature = headers.get(standardHeaderName(headers, "signature"));
  if (!id || !timestamp || !signature)
    return fail("missing webhook-id, webhook-timestamp or webhook-signature header (or svix-id, svix-timestamp, svix-signature)");
  if (looksDuplicated(id) || looksDuplicated(timestamp)) return fail("duplicate webhook-id or webhook-timestamp header (or svix-id, svix-timestamp)");
  if (!withinTolerance(timestamp, nowS)) return fail("webhook-timestamp is missing, malformed or outside the 300 s tolerance");
  const given: Buffer[] = [];
  for (const entry of signature.split(" ")) {
    const [version, sig] = entry.split(",", 2);
    if (version === "v1" && sig && /^[A-Za-z0-9+/]+={0,2}$/.test(sig)) given.push(Buffer.from(sig, "base64"));
  }
  if (given.length === 0) return fail("webhook-signature carries no v1 signature");
  const signedBy = secrets.some((s) => {
    const key = standardWebhooksKey(s);
    return key !== null && matchesAny(hmacSha256(key, `${id}.${timestamp}.`, body), given);
  });
  return signedBy ? OK : fail("no v1 signature matches");
}
