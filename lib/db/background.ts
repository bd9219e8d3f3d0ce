/**
 * Work a request leaves behind after it has answered: sealing the ledger, coalesced NOTIFYs. It is tracked so that
 * closing the database first runs what is still waiting and lets what is running finish: nothing queries a pool
 * that is closing (postgres.js crashes on it) or reopens a handle to a database that is gone.
 */
interface Background {
  timers: Map<NodeJS.Timeout, () => Promise<void>>;
  running: Set<Promise<void>>;
}

const g = globalThis as { __brynthBackground?: Background };
const state = (): Background => (g.__brynthBackground ??= { timers: new Map(), running: new Set() });

/** Runs `task` after `ms` (0: on the next turn of the event loop). Its errors are the task's to report. */
export function runLater(ms: number, task: () => Promise<void>): void {
  const s = state();
  const timer = setTimeout(() => {
    s.timers.delete(timer);
    start(task);
  }, ms);
  s.timers.set(timer, task);
}

function start(task: () => Promise<void>) {
  const s = state();
  const p = task()
    .catch((err) => console.error("[brynth] background task failed", err))
    .finally(() => s.running.delete(p));
  s.running.add(p);
}

/** Runs every waiting task now and waits until no task is left, including those the tasks schedule. */
export async function drainBackground(): Promise<void> {
  const s = state();
  while (s.timers.size || s.running.size) {
    for (const [timer, task] of s.timers) {
      clearTimeout(timer);
      s.timers.delete(timer);
      start(task);
    }
    await Promise.all(s.running);
  }
}
