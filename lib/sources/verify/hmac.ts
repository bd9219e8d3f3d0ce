import { createHmac, timingSafeEqual } from "node:crypto";

export type Verdict = { ok: true } | { ok: false; reason: string };
export const fail = (reason: string): Verdict => ({ ok: false, reason });
export const OK: Verdict = { ok: true };

/** Signature schemes with a timestamp accept it this far from our clock, in either direction. */
export const TOLERANCE_S = 300;

export function hmacSha256(key: string | Uint8Array, ...parts: (string | Uint8Array)[]): Buffer {
  const h = createHmac("sha256", key);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** Constant time: every candidate is compared in full, and a length mismatch never short-circuits the loop. */
export function matchesAny(expected: Buffer, candidates: Buffer[]): boolean {
  let found = false;
  for (const c of candidates) {
    const same = c.length === expected.length ? timingSafeEqual(c, expected) : (timingSafeEqual(expected, expected), false);
    found = found || same;
  }
  return found;
}

export function withinTolerance(timestamp: string, nowS: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowS - Number(timestamp)) <= TOLERANCE_S;
}

/** A header that arrived twice is joined with ", " by the HTTP layer: signature values never contain that. */
export const looksDuplicated = (value: string) => value.includes(", ");
