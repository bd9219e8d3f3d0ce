import { getHandle } from "@/lib/db/client";

/**
 * LISTEN for wake-ups between instances: one LISTEN per channel per process, fanned out in memory. Changes are
 * sent after their commit by change-channel.ts, the one way to NOTIFY.
 */
type Handler = (payload: string) => void;
interface Listener {
  handlers: Set<Handler>;
  /** Called each time the LISTEN is (re)established: notifications sent while it was down are lost. */
  resubscribed: Set<() => void>;
  ready: Promise<void>;
}
const g = globalThis as { __brynthListeners?: Map<string, Listener> };

export async function listen(channel: string, handler: Handler, onResubscribed?: () => void): Promise<() => void> {
  g.__brynthListeners ??= new Map();
  let entry = g.__brynthListeners.get(channel);
  if (!entry) {
    const handlers = new Set<Handler>();
    const resubscribed = new Set<() => void>();
    const fan = (payload: string) => handlers.forEach((h) => h(payload));
    const ready = (async () => {
      const handle = await getHandle();
      // postgres.js re-LISTENs on a new connection after losing one, then calls this.
      if (handle.kind === "postgres") await handle.sql!.listen(channel, fan, () => resubscribed.forEach((f) => f()));
      else await handle.pglite!.listen(channel, fan);
    })();
    const created: Listener = { handlers, resubscribed, ready };
    // A LISTEN refused (the database away for a moment) is forgotten, so the next subscriber tries again: kept, its
    // rejection failed every later waiter of this process.
    ready.catch(() => {
      if (g.__brynthListeners?.get(channel) === created) g.__brynthListeners.delete(channel);
    });
    entry = created;
    g.__brynthListeners.set(channel, entry);
  }
  const e = entry;
  e.handlers.add(handler);
  if (onResubscribed) e.resubscribed.add(onResubscribed);
  try {
    await e.ready;
  } catch (err) {
    e.handlers.delete(handler);
    if (onResubscribed) e.resubscribed.delete(onResubscribed);
    throw err;
  }
  return () => {
    e.handlers.delete(handler);
    if (onResubscribed) e.resubscribed.delete(onResubscribed);
  };
}
