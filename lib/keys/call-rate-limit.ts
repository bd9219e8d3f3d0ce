import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

/**
 * Calls per API key: a token bucket per key holding up to KEY_CALLS_PER_MINUTE tokens, refilled continuously at that
 * rate per minute, so a key may burst its whole minute at once and then goes at the steady rate. In-process on
 * purpose, like the auth throttle: the limit keeps one runaway agent from taking an instance's CPU and database pool,
 * which is each instance's own concern; nothing correct depends on it, and N instances each allowing the limit is
 * still a cap (README: "on each instance"). Checking it costs a map lookup and no database access.
 */
interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

/** Only authenticated keys get a bucket, so the map is bounded by the keys that exist; this caps it regardless. */
const MAX_BUCKETS = 10_000;
const g = globalThis as { __brynthKeyCalls?: Map<string, Bucket> };
const buckets = () => (g.__brynthKeyCalls ??= new Map());

/** Takes one call's token from the key's bucket, or throws `rate_limited` saying when the next one is back. */
export function takeCallToken(keyId: string): void {
  const limit = env().KEY_CALLS_PER_MINUTE;
  if (limit === 0) return;
  const now = Date.now();
  const map = buckets();
  const bucket = map.get(keyId);
  if (!bucket) {
    if (map.size >= MAX_BUCKETS) evict(map, now, limit);
    map.set(keyId, { tokens: limit - 1, at: now });
    return;
  }
  // min() also clamps a bucket filled under a higher limit than the one now configured.
  const tokens = Math.min(limit, bucket.tokens + ((now - bucket.at) * limit) / 60_000);
  bucket.at = now;
  if (tokens >= 1) {
    bucket.tokens = tokens - 1;
    return;
  }
  bucket.tokens = tokens;
  const retryAfter = Math.max(1, Math.ceil(((1 - tokens) * 60) / limit));
  throw new AppError("rate_limited", `Too many calls with this key: the limit is ${limit} a minute.`, {
    fix: `Wait ${retryAfter} s, then retry; spread calls out to stay under ${limit} a minute.`,
    details: { retry_after_seconds: retryAfter },
    headers: { "Retry-After": String(retryAfter) },
  });
}

/**
 * A full bucket is the same as none, so those go first. Should that not free a tenth of the map (10,000 keys
 * busy at once), the oldest buckets go too: those keys start afresh, which errs on the side of allowing calls.
 */
function evict(map: Map<string, Bucket>, now: number, limit: number): void {
  for (const [id, b] of map) if (b.tokens + ((now - b.at) * limit) / 60_000 >= limit) map.delete(id);
  for (const id of map.keys()) {
    if (map.size < MAX_BUCKETS * 0.9) break;
    map.delete(id);
  }
}
