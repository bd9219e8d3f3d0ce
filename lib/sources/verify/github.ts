import { fail, hmacSha256, matchesAny, OK, type Verdict } from "@/lib/sources/verify/hmac";

/** X-Hub-Signature-256: `sha256=<hex>`, HMAC-SHA256 of the raw body. GitHub signs without a timestamp. */
export function verifyGithub(body: Uint8Array, headers: Pick<Headers, "get">, secrets: string[]): Verdict {
  const header = headers.get("x-hub-signature-256");
  if (!header) return fail("missing X-Hub-Signature-256 header");
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!m) return fail("malformed X-Hub-Signature-256 header");
  const given = Buffer.from(m[1], "hex");
  return secrets.some((s) => matchesAny(hmacSha256(s, body), [given])) ? OK : fail("signature does not match");
}
