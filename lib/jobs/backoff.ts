/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries of jobs that failed
 * together (a relay outage) spread out instead of hammering the relay in step, yet never come back too early.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * The delay after failed attempt `attempt` on a fixed schedule (the last entry repeats), at least `notBeforeMs` when
 * the other side asked for it (capped at the schedule's longest delay, so a wild `Retry-After` cannot park a job for
 * months). Jitter only lengthens it, by up to 10%: never earlier than published or asked.
 */
export function scheduledDelayMs(attempt: number, schedule: readonly number[], notBeforeMs = 0, random = Math.random): number {
  const planned = schedule[Math.min(Math.max(0, attempt - 1), schedule.length - 1)] ?? 0;
  const delay = Math.max(planned, Math.min(notBeforeMs, Math.max(...schedule)));
  return Math.round(delay * (1 + random() * 0.1));
}
