/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries of jobs that failed
 * together (a relay outage) spread out instead of hammering the relay in step, yet never come back too early.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}
