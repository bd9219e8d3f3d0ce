import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { tokenBuckets } from "@/lib/http/token-buckets";

/**
 * Calls per API key: a token bucket per key of KEY_CALLS_PER_MINUTE (token-buckets.ts). In-process on purpose, like
 * the auth throttle: the limit keeps one runaway agent from taking an instance's CPU and database pool, which is
 * each instance's own concern; nothing correct depends on it, and N instances each allowing the limit is still a
 * cap (README: "on each instance").
 */
const { take: takeToken } = tokenBuckets("__brynthKeyCalls");

/** Takes one call's token from the key's bucket, or throws `rate_limited` saying when the next one is back. */
export function takeCallToken(keyId: string): void {
  const limit = env().KEY_CALLS_PER_MINUTE;
  if (limit === 0) return;
  const retryAfter = takeToken(keyId, limit);
  if (retryAfter === 0) return;
  throw new AppError("rate_limited", `Too many calls with this key: the limit is ${limit} a minute.`, {
    fix: `Wait ${retryAfter} s, then retry; spread calls out to stay under ${limit} a minute.`,
    details: { retry_after_seconds: retryAfter },
    headers: { "Retry-After": String(retryAfter) },
  });
}
