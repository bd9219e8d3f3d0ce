import type { Executor } from "@/lib/db/client";
import type { Source } from "@/lib/db/schema/events";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { tokenBuckets } from "@/lib/http/token-buckets";
import { recordRefusal } from "@/lib/sources/intake-refusals";

/** Deliveries per source: a token bucket of SOURCE_DELIVERIES_PER_MINUTE (token-buckets.ts), on each instance. */
const { take: takeToken, giveBack } = tokenBuckets("__brynthSourceDeliveries");

/** Deliveries refused for rate are counted together this often, per source: a flood costs no write per request. */
const COUNT_EVERY_MS = 2_000;
const uncounted = new Map<string, { source: Source; n: number; limit: number }>();

/**
 * Takes one delivery's token of `source`, or throws `rate_limited` (429 with Retry-After) and counts the refusal.
 * Returns the refund, for a delivery that turns out not to be the source's (its signature failed).
 */
export function takeDeliveryToken(db: Executor, source: Source): () => void {
  const limit = env().SOURCE_DELIVERIES_PER_MINUTE;
  if (limit === 0) return () => {};
  const retryAfter = takeToken(source.id, limit);
  if (retryAfter === 0) return () => giveBack(source.id, limit);
  countLater(db, source, limit);
  throw new AppError("rate_limited", `Too many deliveries to this source: the limit is ${limit} a minute.`, {
    fix: `Retry after ${retryAfter} s.`,
    headers: { "Retry-After": String(retryAfter) },
  });
}

function countLater(db: Executor, source: Source, limit: number) {
  const held = uncounted.get(source.id);
  if (held) {
    held.n++;
    return;
  }
  uncounted.set(source.id, { source, n: 1, limit });
  setTimeout(() => {
    const done = uncounted.get(source.id);
    uncounted.delete(source.id);
    if (!done) return;
    const detail = `Over the limit of ${done.limit} deliveries a minute: answered 429 with Retry-After.`;
    void recordRefusal(db, { source: done.source, reason: "rate_limited", detail, count: done.n });
  }, COUNT_EVERY_MS).unref();
}
