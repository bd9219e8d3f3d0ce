import { randomBytes } from "node:crypto";

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Random bytes drawn from a pool refilled 4 KB at a time: one call into OpenSSL per ~90 ids instead of one each. */
let pool = Buffer.alloc(0);
let offset = 0;
function randomByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  return pool[offset++];
}

/** Uniform base62 from rejection sampling, so no character is more likely than another. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += alphabet[b % 62];
  }
  return out;
}

/** Prefixed random ids as in the specs (`evt_…`, `req_…`, `key_…`): 22 base62 chars ≈ 131 bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(22)}`;
}
