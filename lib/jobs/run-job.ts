import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { jobs, type JobRow } from "@/lib/db/schema/jobs";
import { backoffMs, scheduledDelayMs } from "@/lib/jobs/backoff";
import { DeferJobError, PermanentJobError, RetryLaterError, resolveNumber, type JobFinish, type JobKind } from "@/lib/jobs/define-job-kind";
import { findJobKind } from "@/lib/jobs/job-kinds";
import { commitFinish, type FinishGroup } from "@/lib/jobs/finish-group";
import { inQueuePlace } from "@/lib/jobs/queue-place";

/** The job as this claim holds it: every write of the run is fenced on it (id, attempts, running). */
const heldBy = (job: JobRow) => and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts), eq(jobs.status, "running"));

/**
 * The claim's job back to pending, `delayMs` on (parked if later than now). `attempted: false` gives its attempt
 * back: the run did not attempt the work (an unknown kind, a DeferJobError).
 */
async function putBack(db: Db, job: JobRow, delayMs: number, message: string, attempted: boolean): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: "pending",
      ...(attempted ? {} : { attempts: job.attempts - 1 }),
      runAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      parked: delayMs > 0,
      lockedUntil: null,
      lastError: message,
      updatedAt: sql`now()`,
    })
    .where(heldBy(job));
}

/**
 * The reason a job records. A thrown object's own `message` if it has one ("[object Object]" told nothing), and
 * never a throw of its own: String() of an object without a prototype throws, which left the job running, no reason.
 */
function errorText(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  if (typeof message === "string") return message.slice(0, 2000);
  try {
    return String(err).slice(0, 2000);
  } catch {
    return "job failed (its error could not be read)";
  }
}

function retryDelayMs(kind: JobKind, attempt: number, error: unknown): number {
  const notBefore = error instanceof RetryLaterError ? error.notBeforeMs : 0;
  if (kind.retryDelaysMs?.length) return scheduledDelayMs(attempt, kind.retryDelaysMs, notBefore);
  const maxMs = kind.retryMaxMs ?? 3_600_000;
  return Math.max(backoffMs(attempt, resolveNumber(kind.retryBaseMs, 10_000), maxMs), Math.min(notBefore, maxMs));
}

/** How long a handler may take to stop once its signal aborts, before its run is given up on. */
export const ABANDON_AFTER_MS = 5_000;

/**
 * The handler's promise, or a rejection once its signal has been aborted (deadline, or the runner stopping) for
 * ABANDON_AFTER_MS without it settling. A handler that ignored its signal held its slot (and, the heartbeat renewing
 * it, its lease) forever, and stop() never returned (found by helper-104). It may still run on, unobserved: its
 * result is dropped, and the job goes on as after any failed attempt (a delivery it left `sending` is unknown).
 */
function abandonedAfter<T>(run: Promise<T>, signal: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    timer = setTimeout(
      () => giveUp(new Error(`did not stop within ${ABANDON_AFTER_MS / 1000} s of being ${timedOut(signal) ? "timed out" : "stopped"}`)),
      ABANDON_AFTER_MS,
    );
    timer.unref?.();
  };
  let giveUp: (err: Error) => void = () => {};
  const abandoned = new Promise<never>((_resolve, reject) => (giveUp = reject));
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return Promise.race([run, abandoned]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  });
}
const timedOut = (signal: AbortSignal) => (signal.reason as { name?: string } | undefined)?.name === "TimeoutError";

/**
 * Runs one claimed job to its next state: done, pending again (retry later) or failed. Every write is fenced on
 * (id, attempts, running), so a runner that lost its lease cannot overwrite the newer claim's outcome.
 */
export function runJob(db: Db, job: JobRow, outer?: AbortSignal, finishes?: FinishGroup): Promise<"done" | "retry" | "failed" | "lost"> {
  return inQueuePlace(job, () => runClaimed(db, job, outer, finishes));
}

async function runClaimed(db: Db, job: JobRow, outer?: AbortSignal, finishes?: FinishGroup): Promise<"done" | "retry" | "failed" | "lost"> {
  const kind = findJobKind(job.kind);
  const mine = heldBy(job);
  if (!kind) {
    // Another instance may run a newer build that knows the kind: leave it for later rather than fail it.
    await putBack(db, job, 60_000, `unknown job kind ${job.kind}`, false);
    return "retry";
  }
  const lastAttempt = job.attempts >= job.maxAttempts;
  const parsed = kind.payload.safeParse(job.payload);
  let error: unknown = null;
  let finish: JobFinish | undefined;
  // Claimed past its last attempt: that attempt was taken back unfinished (reclaimExpiredJobs), not failed. What it
  // did outside the database is unknown, as is what this run did if its final write fails.
  let interrupted = job.attempts > job.maxAttempts;
  if (!parsed.success) error = new PermanentJobError(`invalid payload: ${parsed.error.message}`);
  else if (interrupted) error = new PermanentJobError(job.lastError ?? "attempts used up");
  else {
    const timeout = AbortSignal.timeout(kind.timeoutMs ?? 120_000);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    try {
      finish = (await abandonedAfter(kind.handler(parsed.data, { job, attempt: job.attempts, lastAttempt, signal }), signal)) || undefined;
    } catch (err) {
      error = err ?? new Error("job failed");
    }
  }
  if (error === null) {
    try {
      // A kind that opted in commits its success with others finishing at the same moment (finish-group.ts).
      const committed = finishes && kind.groupFinish ? await finishes.commit(job, finish) : await commitFinish(db, job, finish);
      // Lost: the claim that holds the job now decides its outcome, and nothing of this run committed.
      return committed ? "done" : "lost";
    } catch (err) {
      // The final write failed (nothing of it committed): a failed attempt like any other, its reason recorded. Left
      // running, the job waited out its lease with no reason given and then ran its whole handler again.
      error = err ?? new Error("the job's final write failed");
      interrupted = true;
    }
  }
  const message = errorText(error);
  if (error instanceof DeferJobError) {
    await putBack(db, job, error.delayMs, message, false);
    error.afterPutBack?.();
    return "retry";
  }
  // Stopped by its runner's shutdown (stop() aborts what outlives the grace): left to be retried as README says, its
  // attempt given back. Counted, a shutdown during a last attempt failed the job for good (found by helper-104).
  if (outer?.aborted && !(error instanceof PermanentJobError)) {
    await putBack(db, job, retryDelayMs(kind, job.attempts, error), `stopped with its instance: ${message}`, false);
    return "retry";
  }
  if (!lastAttempt && !(error instanceof PermanentJobError)) {
    await putBack(db, job, retryDelayMs(kind, job.attempts, error), message, true);
    return "retry";
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(jobs)
      .set({ status: "failed", finishedAt: sql`now()`, lockedUntil: null, lastError: message, updatedAt: sql`now()` })
      .where(mine)
      .returning();
    if (row && parsed.success) await kind.onFailure?.(parsed.data, { db: tx, job: row, error: message, interrupted });
  });
  return "failed";
}
