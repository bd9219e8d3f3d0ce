import { sql } from "drizzle-orm";
import type { z } from "zod";
import { getDb, type Executor } from "@/lib/db/client";
import { afterCommit } from "@/lib/db/transaction";
import { runLater } from "@/lib/db/background";
import { listen } from "@/lib/db/notify";

/** pg_notify refuses payloads of 8000 bytes and more. */
const MAX_PAYLOAD = 7000;
/** A SELECT has at most 1664 targets (Postgres's MaxTupleAttributeNumber): a round of more notifications is split. */
const MAX_NOTIFIES_PER_STATEMENT = 1000;

/**
 * JSON arrays of the given items, each under the NOTIFY payload limit. Sized in bytes of UTF-8, as Postgres counts:
 * sized in UTF-16 units, a round of items with non-ASCII text (event types) passed as small and was refused whole.
 * An item that cannot fit even alone is left out (and logged): a round is one statement, which it would fail, and
 * with it every change of every channel told in the same moment. Only text a client chose can be that large (the
 * request id of an MCP cancel).
 */
function payloads(channel: string, items: unknown[]): string[] {
  const out: string[] = [];
  let chunk: string[] = [];
  let size = 2;
  for (const c of items) {
    const item = JSON.stringify(c);
    const bytes = Buffer.byteLength(item);
    if (bytes + 2 > MAX_PAYLOAD) {
      console.error(`[brynth] change on ${channel} left out: ${bytes} bytes do not fit a notification`);
      continue;
    }
    if (chunk.length && size + bytes + 1 > MAX_PAYLOAD) {
      out.push(`[${chunk.join(",")}]`);
      chunk = [];
      size = 2;
    }
    chunk.push(item);
    size += bytes + 1;
  }
  if (chunk.length) out.push(`[${chunk.join(",")}]`);
  return out;
}

const g = globalThis as { __brynthOutbox?: Outbox; __brynthAnnounced?: Map<string, unknown[]> };
interface Outbox {
  items: Map<string, unknown[]>;
  /** A flush is scheduled or running; what is published meanwhile goes out in its next round. */
  flushing: boolean;
}

/**
 * Everything published in the same moment, on every channel, leaves in ONE statement: a NOTIFY commit takes a
 * cluster-wide lock until its WAL flush (measured here: 320 commits/s with NOTIFY in each against 570–1,350
 * without), so a request the policy decides at once and its `request.resolved` event share one.
 * One flush runs at a time: two statements on two pooled connections could commit in either order, and a
 * listener would then see an event's `done` before its `claimed`.
 */
export function publish(channel: string, item: unknown): void {
  const outbox = (g.__brynthOutbox ??= { items: new Map(), flushing: false });
  const queued = outbox.items.get(channel);
  if (queued) queued.push(item);
  else outbox.items.set(channel, [item]);
  if (outbox.flushing) return;
  outbox.flushing = true;
  runLater(0, async () => {
    while (outbox.items.size) {
      const round = [...outbox.items];
      outbox.items.clear();
      const batch = round.flatMap(([ch, items]) => payloads(ch, items).map((p) => sql`pg_notify(${ch}, ${p})`));
      // In order, one statement after the other. In one statement, a round of over 1664 notifications (a burst of
      // MCP cancels with long request ids: one each) was refused whole, and every change told with it was lost.
      for (let i = 0; i < batch.length; i += MAX_NOTIFIES_PER_STATEMENT) {
        try {
          await (await getDb()).execute(sql`select ${sql.join(batch.slice(i, i + MAX_NOTIFIES_PER_STATEMENT), sql`, `)}`);
        } catch (err) {
          // Those notifications are lost, as a NOTIFY is on a crash; the flush goes on with the rest.
          console.error("[brynth] change notification failed", err);
        }
      }
    }
    outbox.flushing = false;
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
  runLater(delayMs, async () => releaseHeld(channel));
}

/** Publishes the channel's held changes now (in their order), before anything told after them. */
function releaseHeld(channel: string): void {
  const batch = g.__brynthAnnounced?.get(channel);
  if (!batch) return;
  g.__brynthAnnounced?.delete(channel);
  for (const c of batch) publish(channel, c);
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
      afterCommit(db, () => {
        if (delay > 0) return announce(name, change, delay);
        // A change told at once must not overtake one held before it (a claim, then a release).
        releaseHeld(name);
        publish(name, change);
      });
    },
    /**
     * `onResubscribed` runs each time the LISTEN is (re)established: changes told while it was down are lost, so a
     * waiter must look again then rather than sleep on to its timeout.
     */
    subscribe(handler: (change: T) => void, onResubscribed?: () => void): Promise<() => void> {
      return listen(
        name,
        (payload) => {
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
        },
        onResubscribed,
      );
    },
  };
}
