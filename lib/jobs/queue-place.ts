import { AsyncLocalStorage } from "node:async_hooks";
import type { JobRow } from "@/lib/db/schema/jobs";

/**
 * Work a job starts keeps the job's place in the queue. Runners claim due jobs oldest `run_at` first, so a job
 * enqueued "now" by a running job (a scheduled send's delivery) would otherwise wait behind every job that fell due
 * before it: of 1,000 drafts due in the same second, the first delivery started only once the last draft was sent.
 * A job enqueued without its own `runAt` while another kind's handler or final write runs takes a place just ahead
 * of that job's `run_at` (already due): one millisecond earlier, so also ahead of the peers due at the same instant
 * (a burst of scheduled sends shares one time). Each item's follow-on work runs next, depth first, and a burst's
 * items finish one by one instead of all at its end. A kind enqueueing its own kind gets no such place: a job that
 * re-queued itself would otherwise stay at the head of the queue forever.
 */
const running = new AsyncLocalStorage<Pick<JobRow, "kind" | "runAt">>();

/** Runs `fn` as the work of `job`: what it enqueues of other kinds, without a time of its own, takes its place. */
export function inQueuePlace<T>(job: Pick<JobRow, "kind" | "runAt">, fn: () => T): T {
  return running.run(job, fn);
}

/** The `run_at` a job of `kind` enqueued now without one takes: just ahead of the running job's, else none (now). */
export function inheritedRunAt(kind: string): Date | undefined {
  const parent = running.getStore();
  return parent && parent.kind !== kind ? new Date(parent.runAt.getTime() - 1) : undefined;
}
