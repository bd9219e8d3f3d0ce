import type { Executor } from "@/lib/db/client";
import { listen } from "@/lib/db/notify";
import { publish } from "@/lib/db/change-channel";
import { afterCommit } from "@/lib/db/transaction";

interface State<V> {
  entries: Map<string, { value: V; at: number }>;
  /** Bumped by every invalidation: a lookup that started before one must not store what it read. */
  epoch: number;
  listening: boolean;
  listen?: Promise<unknown>;
}

const g = globalThis as { __brynthCaches?: Map<string, State<unknown>> };

/**
 * Rows read moments ago, kept per process (on globalThis: Next's bundle and server.ts share them) until a change
 * NOTIFYs `channel` after its commit, which empties the cache on every instance. Entries also expire after `maxAgeMs`,
 * which bounds what a notification lost while the LISTEN connection was down could cost (it is emptied again
 * when the LISTEN is back). Until this process's LISTEN is in place nothing is kept.
 */
export function notifiedCache<V>(channel: string, opts: { maxAgeMs: number; maxEntries?: number }) {
  const maxEntries = opts.maxEntries ?? 10_000;
  const state = (): State<V> => {
    const caches = (g.__brynthCaches ??= new Map());
    let s = caches.get(channel) as State<V> | undefined;
    if (!s) {
      s = { entries: new Map(), epoch: 0, listening: false };
      caches.set(channel, s as State<unknown>);
    }
    return s;
  };
  const clear = () => {
    const s = state();
    s.entries.clear();
    s.epoch++;
  };
  return {
    get(key: string): V | undefined {
      const hit = state().entries.get(key);
      return hit && Date.now() - hit.at < opts.maxAgeMs ? hit.value : undefined;
    },
    /** Take before reading the database; hand back to `set`. */
    epoch(): number {
      const s = state();
      // A reconnected LISTEN empties the cache too: what changed while it was down was never announced.
      s.listen ??= listen(channel, clear, clear).then(
        () => {
          clear();
          s.listening = true;
        },
        (err) => {
          s.listen = undefined;
          console.error(`[brynth] cache of ${channel} disabled: LISTEN failed`, err);
        },
      );
      return s.epoch;
    },
    /** Keeps what a lookup read, unless something was invalidated since it began (it may have read the old row). */
    set(epoch: number, key: string, value: V): void {
      const s = state();
      if (!s.listening || epoch !== s.epoch) return;
      if (s.entries.size >= maxEntries) s.entries.clear();
      s.entries.set(key, { value, at: Date.now() });
    },
    /**
     * Given the transaction that changes what is cached: this instance forgets at once, so its own next read goes
     * to the database, and again on commit, with every other instance (a NOTIFY after the commit).
     */
    invalidate(db: Executor): void {
      clear();
      afterCommit(db, () => {
        clear();
        publish(channel, null);
      });
    },
  };
}
