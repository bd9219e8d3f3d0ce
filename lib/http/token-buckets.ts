/**
 * Token buckets by id, in-process in a map on globalThis (Next's bundles and the custom server share it): each holds
 * up to `perMinute` tokens, refilled continuously at that rate, so an id may burst its whole minute at once and then
 * goes at the steady rate. Checking costs a map lookup and no database access. Only ids that exist get a bucket (a
 * key that authenticated, a source found by its URL, a client address block), so the map is bounded by them; MAX_BUCKETS
 * caps it regardless.
 */
interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

const MAX_BUCKETS = 10_000;

export function tokenBuckets(name: "__brynthKeyCalls" | "__brynthSourceDeliveries" | "__brynthUnknownHooks" | "__brynthForgedDeliveries") {
  const g = globalThis as unknown as Partial<Record<typeof name, Map<string, Bucket>>>;
  /** Takes one token of `id`: 0 when there was one, else the whole seconds until the next is back. */
  const take = (id: string, perMinute: number): number => {
    const now = Date.now();
    const map = (g[name] ??= new Map());
    const bucket = map.get(id);
    if (!bucket) {
      if (map.size >= MAX_BUCKETS) evict(map, now, perMinute);
      map.set(id, { tokens: perMinute - 1, at: now });
      return 0;
    }
    // min() also clamps a bucket filled under a higher limit than the one now configured.
    const tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.at) * perMinute) / 60_000);
    bucket.at = now;
    if (tokens >= 1) {
      bucket.tokens = tokens - 1;
      return 0;
    }
    bucket.tokens = tokens;
    return Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute));
  };
  /** Whole seconds until `id` has a token again, 0 if it has one now: a check that takes nothing. */
  const wait = (id: string, perMinute: number): number => {
    const bucket = g[name]?.get(id);
    if (!bucket) return 0;
    const tokens = Math.min(perMinute, bucket.tokens + ((Date.now() - bucket.at) * perMinute) / 60_000);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute));
  };
  /** Puts back a token taken for a request that turned out not to count (charged first, so a burst cannot pass at once). */
  const giveBack = (id: string, perMinute: number): void => {
    const bucket = g[name]?.get(id);
    if (bucket) bucket.tokens = Math.min(perMinute, bucket.tokens + 1);
  };
  return { take, wait, giveBack };
}

/**
 * A full bucket is the same as none, so those go first. Should that not free a tenth of the map (10,000 ids busy
 * at once), the oldest buckets go too: those start afresh, which errs on the side of allowing.
 */
function evict(map: Map<string, Bucket>, now: number, perMinute: number): void {
  for (const [id, b] of map) if (b.tokens + ((now - b.at) * perMinute) / 60_000 >= perMinute) map.delete(id);
  for (const id of map.keys()) {
    if (map.size < MAX_BUCKETS * 0.9) break;
    map.delete(id);
  }
}
