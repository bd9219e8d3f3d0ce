import { getDb, type Db } from "@/lib/db/client";
import { runLater } from "@/lib/db/background";

interface Queue<In, Out> {
  pending: { item: In; resolve: (out: Out) => void; reject: (err: unknown) => void }[];
  flushing: boolean;
}

const g = globalThis as { __brynthCoalesce?: Map<string, Queue<unknown, unknown>> };

/**
 * Statements that concurrent calls make outside a transaction, coalesced: one goes out at once, and everything
 * that arrives while it is in flight goes together in the next, up to `max` items. On this kind of machine a
 * round trip's socket writes and the backend's wake-up cost more CPU than a point read or a one-row insert
 * itself (bench/), so sixteen callers sharing three statements instead of sending sixteen is the saving; an
 * idle server still answers a lone caller with one statement and no added wait.
 *
 * `run` gets the items in arrival order and returns one result per item, in the same order. Each caller waits
 * for its own statement, so what a caller saw committed before it called is what the statement sees. The queue
 * lives on globalThis under `name`: the Next bundles and server.ts share one per process.
 */
export function coalesce<In, Out>(name: string, max: number, run: (db: Db, items: In[]) => Promise<Out[]>): (item: In) => Promise<Out> {
  return (item) => {
    const queues = (g.__brynthCoalesce ??= new Map());
    if (!queues.has(name)) queues.set(name, { pending: [], flushing: false });
    const queue = queues.get(name) as unknown as Queue<In, Out>;
    return new Promise<Out>((resolve, reject) => {
      queue.pending.push({ item, resolve, reject });
      if (queue.flushing) return;
      queue.flushing = true;
      runLater(0, async () => {
        try {
          const db = await getDb();
          while (queue.pending.length) {
            const batch = queue.pending.splice(0, max);
            await run(
              db,
              batch.map((p) => p.item),
            ).then(
              (outs) => batch.forEach((p, i) => p.resolve(outs[i])),
              (err) => batch.forEach((p) => p.reject(err)),
            );
          }
        } catch (err) {
          queue.pending.splice(0).forEach((p) => p.reject(err));
        } finally {
          queue.flushing = false;
        }
      });
    });
  };
}
