import { randomBytes } from "node:crypto";

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Uniform base62 from rejection sampling, so no character is more likely than another. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += alphabet[b % 62];
    }
  }
  return out;
}

/** Prefixed random ids as in the specs (`evt_…`, `req_…`, `key_…`): 22 base62 chars ≈ 131 bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(22)}`;
}
