const g = globalThis as { __brynthMailCaches?: Map<string, Map<string, { at: number; value: unknown }>> };

/**
 * A per-process memo for settings read on every delivery (relay, local domains, sender mailbox), valid a few
 * seconds: a changed setting applies to deliveries within that time. Never used where a change must act at once
 * (accepting email_send, RCPT refusals).
 */
export async function memo<T>(name: string, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  g.__brynthMailCaches ??= new Map();
  let cache = g.__brynthMailCaches.get(name);
  if (!cache) g.__brynthMailCaches.set(name, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < ttlMs) return hit.value as T;
  const value = await load();
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: Date.now(), value });
  return value;
}
