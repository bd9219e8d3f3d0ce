import { isIP } from "node:net";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { addressBlock } from "@/lib/http/address-block";

/**
 * Failed authentications per client address in a one-minute window. In-process on purpose: throttling is a defence,
 * not correctness, and N instances each allowing the limit is still a hard cap on guessing.
 */
const WINDOW_MS = 60_000;
const g = globalThis as { __brynthAuthFailures?: Map<string, { count: number; resetAt: number }> };
const failures = () => (g.__brynthAuthFailures ??= new Map());

/**
 * Failures are counted per block a client controls (address-block.ts, as SMTP's connection cap counts them): an
 * IPv6 client holds a whole /64, and counted per address it had the limit again from each of its 2^64 addresses.
 * Keys are an address, or `<purpose>:<address>`.
 */
function blockKey(key: string): string {
  if (isIP(key)) return addressBlock(key);
  const at = key.indexOf(":");
  const address = key.slice(at + 1);
  return at > 0 && isIP(address) ? `${key.slice(0, at)}:${addressBlock(address)}` : key;
}

export function checkAuthThrottle(key: string): void {
  const ip = blockKey(key);
  const entry = failures().get(ip);
  if (!entry) return;
  const now = Date.now();
  if (entry.resetAt <= now) {
    failures().delete(ip);
    return;
  }
  if (entry.count >= env().AUTH_FAILURES_PER_MINUTE) {
    const retryAfter = Math.ceil((entry.resetAt - now) / 1000);
    throw new AppError("rate_limited", "Too many failed authentication attempts from this address.", {
      fix: `Wait ${retryAfter} s, then retry with a valid key.`,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

export function noteAuthFailure(key: string): void {
  const ip = blockKey(key);
  const now = Date.now();
  const map = failures();
  const entry = map.get(ip);
  if (!entry || entry.resetAt <= now) map.set(ip, { count: 1, resetAt: now + WINDOW_MS });
  else entry.count++;
  if (map.size > 10_000) {
    for (const [k, v] of map) if (v.resetAt <= now) map.delete(k);
  }
}

/**
 * For a check that costs the server dearly (argon2id on an owner password): counts the attempt as a failure before
 * the check runs, and returns the refund for when the credentials prove right. Counted only afterwards, every guess
 * sent at once passed checkAuthThrottle before the first failure was noted (60 at once: 40 checked against a limit
 * of 20), so one client could queue any number of argon2id runs on the thread pool the rest of the server needs.
 */
export function chargeAuthAttempt(ip: string): () => void {
  checkAuthThrottle(ip);
  noteAuthFailure(ip);
  let refunded = false;
  return () => {
    if (refunded) return;
    refunded = true;
    const entry = failures().get(blockKey(ip));
    if (!entry || entry.resetAt <= Date.now()) return;
    entry.count--;
    if (entry.count <= 0) failures().delete(blockKey(ip));
  };
}
