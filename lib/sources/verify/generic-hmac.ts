import { fail, hmacSha256, matchesAny, OK, type Verdict } from "@/lib/sources/verify/hmac";

export const DEFAULT_SIGNATURE_HEADER = "x-signature";

/** Hex (64 digits) or base64 / base64url (43–44 characters) of the 32-byte HMAC, optionally prefixed `sha256=`. */
function decodeSignature(value: string): Buffer | null {
  const v = value.trim().replace(/^sha256=/i, "");
  if (/^[0-9a-f]{64}$/i.test(v)) return Buffer.from(v, "hex");
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(v)) {
    const b = Buffer.from(v.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    return b.length === 32 ? b : null;
  }
  return null;
}

/** HMAC-SHA256 of the raw body in a configurable header, hex or base64. */
export function verifyHmac(body: Uint8Array, headers: Pick<Headers, "get">, secrets: string[], header: string | null): Verdict {
  const name = header ?? DEFAULT_SIGNATURE_HEADER;
  const value = headers.get(name);
  if (!value) return fail(`missing ${name} header`);
  const given = decodeSignature(value);
  if (!given) return fail(`malformed ${name} header: expected the HMAC-SHA256 in hex or base64`);
  return secrets.some((s) => matchesAny(hmacSha256(s, body), [given])) ? OK : fail("signature does not match");
}
