/**
 * Per-key counters of things held at once (live streams, long waits), kept in-process in a map on globalThis (so
 * Next's bundles and the custom server share it). Only keys holding something are in the map: it is bounded by them.
 */
export function countedSlots(name: "__brynthStreamSlots" | "__brynthKeyWaits") {
  const g = globalThis as unknown as Partial<Record<typeof name, Map<string, number>>>;
  /** A slot of `id` if it holds fewer than `limit`, as its release (once only; later calls do nothing); else null. */
  return (id: string, limit: number): (() => void) | null => {
    const map = (g[name] ??= new Map());
    const held = map.get(id) ?? 0;
    if (held >= limit) return null;
    map.set(id, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (map.get(id) ?? 1) - 1;
      if (now <= 0) map.delete(id);
      else map.set(id, now);
    };
  };
}
