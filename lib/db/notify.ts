import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { getHandle } from "@/lib/db/client";

/**
 * LISTEN/NOTIFY wake-ups between instances. `notify` inside a transaction is delivered on commit, so a listener
 * never wakes before the row it should read is visible. One LISTEN per channel per process, fanned out in memory.
 */
type Handler = (payload: string) => void;
const g = globalThis as { __brynthListeners?: Map<string, { handlers: Set<Handler>; ready: Promise<void> }> };

export async function notify(db: Executor, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

export async function listen(channel: string, handler: Handler): Promise<() => void> {
  g.__brynthListeners ??= new Map();
  let entry = g.__brynthListeners.get(channel);
  if (!entry) {
    const handlers = new Set<Handler>();
    const fan = (payload: string) => handlers.forEach((h) => h(payload));
    const ready = (async () => {
      const handle = await getHandle();
      if (handle.kind === "postgres") await handle.sql!.listen(channel, fan);
      else await handle.pglite!.listen(channel, fan);
    })();
    entry = { handlers, ready };
    g.__brynthListeners.set(channel, entry);
  }
  entry.handlers.add(handler);
  await entry.ready;
  const e = entry;
  return () => e.handlers.delete(handler);
}
