import { createHash } from "node:crypto";
import { sha256Hex } from "@/lib/crypto/hash";
import { randomBase62 } from "@/lib/ids";

/**
 * Secrets of the authorization server, each with a prefix that says what it is (as `brk_live_` does for keys):
 * access tokens `oat_`, refresh tokens `ort_`, client secrets `ocs_`. Codes carry none: they live for minutes in a
 * redirect URL. 40 base62 characters ≈ 238 random bits. Only their SHA-256 is stored.
 */
export const ACCESS_PREFIX = "oat_";
export const REFRESH_PREFIX = "ort_";
export const CLIENT_SECRET_PREFIX = "ocs_";
const LENGTH = 40;

export function newSecret(prefix: string): { secret: string; hash: string } {
  const secret = prefix + randomBase62(LENGTH);
  return { secret, hash: sha256Hex(secret) };
}

export const hashSecret = (secret: string) => sha256Hex(secret);

/** An actor's `keyId` names an OAuth grant (its id, `ogr_…`) when the call came with an access token, else an API key. */
export const isGrantId = (keyId: string) => keyId.startsWith("ogr_");

export const looksLikeAccessToken = (s: string) => s.startsWith(ACCESS_PREFIX) && s.length === ACCESS_PREFIX.length + LENGTH;

/** RFC 7636 §4.6: S256 is BASE64URL(SHA256(ASCII(code_verifier))), compared with the stored challenge. */
export const s256 = (verifier: string) => createHash("sha256").update(verifier, "ascii").digest("base64url");

/** RFC 7636 §4.1: 43 to 128 unreserved characters; a challenge is a 43-character base64url SHA-256. */
export const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
export const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;
