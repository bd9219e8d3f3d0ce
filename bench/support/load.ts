/** One call of `fn` on `worker`: its latency counted from `since` into `latencies`; false when it failed. */
async function timed(fn: (worker: number) => Promise<void>, worker: number, since: number, latencies: number[]): Promise<boolean> {
  try {
    await fn(worker);
    latencies.push(performance.now() - since);
    return true;
  } catch {
    return false;
  }
}

/** Closed-loop load: `clients` workers call `fn` back to back for `seconds`; returns req/s and latency percentiles. */
export async function closedLoop(clients: number, seconds: number, fn: (worker: number) => Promise<void>) {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      while (performance.now() < end) {
        if (!(await timed(fn, w, performance.now(), latencies))) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { requests: latencies.length, errors, rps: Math.round(latencies.length / elapsed), ...percentiles(latencies) };
}

/**
 * Open-loop load: calls start on a fixed schedule, `rate` a second for `seconds`, each on the first of `clients`
 * workers that is free. A call's latency runs from its scheduled start, so time spent waiting for a free worker
 * counts (no coordinated omission): the latency a caller sees at that offered rate, where closedLoop measures the
 * queue of clients that never pause.
 */
export async function openLoop(rate: number, seconds: number, clients: number, fn: (worker: number) => Promise<void>) {
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.round(rate * seconds);
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      while (next < total) {
        const due = start + (next++ * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (!(await timed(fn, w, due, latencies))) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { offered_per_second: rate, requests: latencies.length, errors, rps: Math.round(latencies.length / elapsed), ...percentiles(latencies) };
}

export function percentiles(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? Number(s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2)) : null);
  return { p50_ms: at(0.5), p99_ms: at(0.99) };
}
