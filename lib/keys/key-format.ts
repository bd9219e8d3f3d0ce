import { randomBase62 } from "@/lib/ids";
import { sha256Hex } from "@/lib/crypto/hash";

export const KEY_PREFIX = "brk_live_";
/** 32 base62 characters ≈ 190 random bits (the issue asks for at least 160). */
const SECRET_LENGTH = 32;

export function generateKeySecret(): { secret: string; hash: string; prefix: string } {
  const secret = KEY_PREFIX + randomBase62(SECRET_LENGTH);
  return { secret, hash: hashKey(secret), prefix: secret.slice(0, KEY_PREFIX.length + 4) };
}

export const hashKey = (secret: string) => sha256Hex(secret);

export const looksLikeKey = (s: string) => s.startsWith(KEY_PREFIX) && s.length === KEY_PREFIX.length + SECRET_LENGTH;
