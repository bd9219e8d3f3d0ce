import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

interface Queue {
  running: number;
  waiting: Array<() => void>;
}
const g = globalThis as { __brynthCallSlots?: Map<string, Queue> };
const queues = () => (g.__brynthCallSlots ??= new Map());

/** Connections of the pool one key's calls never take: enough for another project's call to get through. */
const LEFT_FOR_OTHERS = 2;

/**
 * KEY_MAX_CONCURRENT_CALLS, or, unset, the database pool less LEFT_FOR_OTHERS. Not half the pool: that queued a busy
 * key's own calls in the ordinary case, 16 clients on one key ran 0.84-0.89x as many whoami and kv_get calls a second
 * (bench/ab-checkouts.ts, pool 20, against the same head with no limit: 1.00-1.04x), while two free connections keep
 * the bystander's call answering just as well (call-slots.test.ts).
 */
export const concurrentCallLimit = () => env().KEY_MAX_CONCURRENT_CALLS ?? Math.max(1, env().DATABASE_POOL_SIZE - LEFT_FOR_OTHERS);

/**
 * Calls of one API key running at once, on this instance; more wait here, in order, for one to end. The pool's own
 * queue is first come first served over every project: one key's burst (batches of 100 tool calls, or hundreds of
 * REST requests, all within its per-minute limit) filled it, each transaction holding a connection while it waited on
 * the key's own row locks, and another project's call waited seconds behind them. Only keys (and OAuth grants) are
 * counted, as by the call limit. Resolves to the release (once only), or throws if `signal` aborts while waiting.
 */
export async function takeCallSlot(keyId: string, signal: AbortSignal): Promise<() => void> {
  const map = queues();
  let q = map.get(keyId);
  if (!q) map.set(keyId, (q = { running: 0, waiting: [] }));
  const queue = q;
  if (queue.running < concurrentCallLimit()) queue.running++;
  else {
    // A release hands its slot straight to the first waiter: `running` stays as it is.
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        signal.removeEventListener("abort", leave);
        resolve();
      };
      const leave = () => {
        const at = queue.waiting.indexOf(admit);
        if (at >= 0) queue.waiting.splice(at, 1);
        if (queue.running === 0 && queue.waiting.length === 0) map.delete(keyId);
        reject(new AppError("service_unavailable", "The call was abandoned before it started.", { fix: "Retry the call." }));
      };
      if (signal.aborted) return leave();
      signal.addEventListener("abort", leave, { once: true });
      queue.waiting.push(admit);
    });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = queue.waiting.shift();
    if (next) return next();
    queue.running--;
    if (queue.running === 0) map.delete(keyId);
  };
}

const heldSlot = new AsyncLocalStorage<{ release: () => void }>();

/**
 * Runs one call of a key holding one of its slots (takeCallSlot), every tool alike: a waiting tool writes (its
 * request, its held send) before it waits, and left out of the count, a burst of them with wait_seconds 0 filled the
 * pool. A wait inside the call gives the slot back as it starts (releaseSlotToWait): waiting holds no connection.
 */
export async function withCallSlot<T>(keyId: string, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  const release = await takeCallSlot(keyId, signal);
  try {
    return await heldSlot.run({ release }, fn);
  } finally {
    release();
  }
}

/** A call of withCallSlot starts a long wait (wait-slots.ts): its slot goes to the key's next call meanwhile. */
export function releaseSlotToWait(): void {
  heldSlot.getStore()?.release();
}
