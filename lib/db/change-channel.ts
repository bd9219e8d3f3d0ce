import { sql } from "drizzle-orm";
import type { z } from "zod";
import { getDb, type Executor } from "@/lib/db/client";
import { afterCommit } from "@/lib/db/transaction";
import { runLater } from "@/lib/db/background";
import { listen } from "@/lib/db/notify";

/** pg_notify refuses payloads of 8000 bytes and more. */
const MAX_PAYLOAD = 7000;

/** JSON arrays of the given items, each under the NOTIFY payload limit. */
function payloads(items: unknown[]): string[] {
  const out: string[] = [];
  let chunk: string[] = [];
  let size = 2;
  for (const c of items) {
    const item = JSON.stringify(c);
    if (chunk.length && size + item.length + 1 > MAX_PAYLOAD) {
      out.push(`[${chunk.join(",")}]`);
      chunk = [];
      size = 2;
    }
    chunk.push(item);
    size += item.length + 1;
  }
  if (chunk.length) out.push(`[${chunk.join(",")}]`);
  return out;
}

const g = globalThis as { __brynthOutbox?: Map<string, unknown[]>; __brynthAnnounced?: Map<string, unknown[]> };

/**
 * Everything published in the same moment, on every channel, leaves in ONE statement: a NOTIFY commit takes a
 * cluster-wide lock until its WAL flush (measured here: 320 commits/s with NOTIFY in each against 570–1,350
 * without), so a request the policy decides at once and its `request.resolved` event share one.
 */
export function publish(channel: string, item: unknown): void {
  const outbox = (g.__brynthOutbox ??= new Map());
  const queued = outbox.get(channel);
  if (queued) return void queued.push(item);
  const first = outbox.size === 0;
  outbox.set(channel, [item]);
  if (!first) return;
  runLater(0, async () => {
    const batch = [...outbox].flatMap(([ch, items]) => payloads(items).map((p) => sql`pg_notify(${ch}, ${p})`));
    outbox.clear();
    try {
      await (await getDb()).execute(sql`select ${sql.join(batch, sql`, `)}`);
    } catch (err) {
      console.error("[brynth] change notification failed", err);
    }
  });
}

/**
 * Changes only watchers care about, held for `delayMs` and then published together (see `gatherMs` below).
 */
function announce(channel: string, item: unknown, delayMs: number): void {
  const held = (g.__brynthAnnounced ??= new Map());
  const items = held.get(channel);
  if (items) return void items.push(item);
  held.set(channel, [item]);
  runLater(delayMs, async () => {
    const batch = held.get(channel) ?? [];
    held.delete(channel);
    for (const c of batch) publish(channel, c);
  });
}

/**
 * A LISTEN/NOTIFY channel of changes (JSON arrays of items of `schema`), for waiters, live screens and senders.
 * `notify(db, change)` is the one way to tell: it publishes once `db`'s transaction has commits (at once given the
 * database itself), so a woken listener always finds the row and a rolled-back change is never told.
 *
 * `gatherMs` says which changes only watchers care about: those are held that long and sent together. Under a
 * stream of claims and acks that is one NOTIFY per window instead of one every few milliseconds, each of whose
 * commits takes the cluster-wide NOTIFY lock that every other commit then waits behind.
 */
export function changeChannel<T>(name: string, schema: z.ZodType<T>, opts: { gatherMs?: (change: T) => number } = {}) {
  return {
    name,
    notify(db: Executor, change: T): void {
      const delay = opts.gatherMs?.(change) ?? 0;
      afterCommit(db, () => (delay > 0 ? announce(name, change, delay) : publish(name, change)));
    },
    subscribe(handler: (change: T) => void): Promise<() => void> {
      return listen(name, (payload) => {
        let items: unknown;
        try {
          items = JSON.parse(payload);
        } catch {
          return;
        }
        for (const item of Array.isArray(items) ? items : [items]) {
          const parsed = schema.safeParse(item);
          if (parsed.success) handler(parsed.data);
        }
      });
    },
  };
}
