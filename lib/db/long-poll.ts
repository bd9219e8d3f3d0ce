import { onStopping, serverStopping } from "@/lib/services/server-stopping";

/**
 * The long-poll of inbox_wait and of the approval tools: subscribe first, then look; while nothing is found, sleep
 * until a matching notification wakes us, until the moment `check` names (a lease or an expiry, which nothing
 * announces), until the deadline, or until `signal` aborts (the client went away). Runs outside any transaction.
 *
 * A process that begins to stop ends its waits at once with the timeout's answer (nothing yet), as the client is
 * told it may happen: it asks again, and another instance (or this one restarted) waits with it. Held to the end,
 * a wait of up to 120 s would outlast the shutdown's grace and have its connection cut instead.
 */
export async function longPoll<T>(opts: {
  /** Subscribes `wake` to the changes that may end the wait; returns the unsubscribe. */
  subscribe: (wake: () => void) => Promise<() => void>;
  /** Looks once. A result ends the wait; otherwise in how many ms something unannounced may change (null: never). */
  check: () => Promise<{ result: T } | { sleepMs: number | null }>;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<{ result: T } | { timedOut: true }> {
  const deadline = Date.now() + opts.timeoutMs;
  let wakeSleeper: (() => void) | null = null;
  let woken = false;
  const stop = await opts.subscribe(() => {
    woken = true;
    wakeSleeper?.();
  });
  const onAbort = () => wakeSleeper?.();
  opts.signal?.addEventListener("abort", onAbort);
  const offStopping = onStopping(onAbort);
  try {
    for (;;) {
      // Reset before looking: a notification arriving during the query must trigger another round.
      woken = false;
      const found = await opts.check();
      if ("result" in found) return found;
      const now = Date.now();
      if (now >= deadline || opts.signal?.aborted || serverStopping().aborted) return { timedOut: true };
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(0, Math.min(deadline - now, found.sleepMs ?? Infinity)));
        function done() {
          clearTimeout(timer);
          wakeSleeper = null;
          resolve();
        }
        wakeSleeper = done;
      });
    }
  } finally {
    stop();
    opts.signal?.removeEventListener("abort", onAbort);
    offStopping();
  }
}
