import { fail, hmacSha256, matchesAny, OK, withinTolerance, type Verdict } from "@/lib/sources/verify/hmac";

/**
 * Stripe-Signature: `t=<unix>,v1=<hex>[,v1=<hex>…][,v0=…]`, HMAC-SHA256 of `<t>.<raw body>` keyed with the whole
 * `whsec_…` secret. Several v1 values are normal while Stripe rolls a secret; any one of them may match.
 */
export function verifyStripe(body: Uint8Array, headers: Pick<Headers, "get">, secrets: string[], nowS: number): Verdict {
  const header = headers.get("stripe-signature");
  if (!header) return fail("missing Stripe-Signature header");
  const stamps: string[] = [];
  const v1: Buffer[] = [];
  for (const item of header.split(",")) {
    const eq = item.indexOf("=");
    if (eq < 1) return fail("malformed Stripe-Signature header");
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === "t") stamps.push(value);
    else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/i.test(value)) return fail("malformed v1 signature in Stripe-Signature header");
      v1.push(Buffer.from(value, "hex"));
    }
  }
  if (stamps.length !== 1) return fail("Stripe-Signature header must carry exactly one t= timestamp");
  if (v1.length === 0) return fail("Stripe-Signature header carries no v1 signature");
  if (!withinTolerance(stamps[0], nowS)) return fail("Stripe-Signature timestamp is outside the 300 s tolerance");
  const signedBy = secrets.some((s) => matchesAny(hmacSha256(s, `${stamps[0]}.`, body), v1));
  return signedBy ? OK : fail("no v1 signature matches");
}
