import type { z } from "zod";
import type { Executor } from "@/lib/db/client";
import type { JobRow } from "@/lib/db/schema/jobs";

/**
 * The job runner, in brief (lib/jobs/*):
 * - A kind is declared once with `defineJobKind({kind, payload, handler, ...})` and listed in lib/jobs/job-kinds.ts.
 * - `enqueueJob(tx, kind, payload, opts)` inserts a row in the caller's transaction and NOTIFYs on commit, so the job
 *   exists exactly when the caller's change does, and an idle runner wakes at once.
 * - Runners (one per process, lib/services/job-runner.ts) claim due rows with FOR UPDATE SKIP LOCKED, so any number
 *   of instances share one table without running a job twice at the same time. A claim holds the job until
 *   `locked_until`; a runner that dies loses it then and another one takes it again (delivery is at least once:
 *   handlers must tolerate a repeat, e.g. by checking the state they are about to change).
 * - The handler runs outside any transaction. Returning means done — it may return a function that runs in the
 *   transaction marking the job done, so its own final write and the job's completion commit together; throwing
 *   means retry after an exponential backoff with jitter, until `maxAttempts`; `PermanentJobError` fails at once.
 *   After the last failure `onFailure` runs in the transaction that marks the job failed (e.g. `email.failed`).
 *   `DeferJobError` puts the job back for later without counting the run as an attempt.
 * - Tests call `drainJobs()` (lib/jobs/drain-jobs.ts) to run whatever is due, in-process.
 */
export interface JobKind<P = unknown> {
  kind: string;
  /** Parses the stored payload before the handler sees it. */
  payload: z.ZodType<P>;
  handler: (payload: P, ctx: JobContext) => Promise<void | JobFinish>;
  /** Default 5. */
  maxAttempts?: number | (() => number);
  /** Delay before the 2nd attempt in ms, doubled each time, capped by `retryMaxMs`. Default 10 s. */
  retryBaseMs?: number | (() => number);
  /** Default 1 hour. */
  retryMaxMs?: number;
  /**
   * A fixed schedule instead of doubling: the delay after the 1st, 2nd … failed attempt (the last entry repeats).
   * Each delay is lengthened by up to 10% at random; `RetryLaterError` asks for longer, capped at the longest entry.
   */
  retryDelaysMs?: readonly number[];
  /** The handler is aborted after this long (default 2 minutes). */
  timeoutMs?: number;
  /**
   * Its successes may commit together with other jobs' finishing at the same moment (lib/jobs/finish-group.ts):
   * for short, frequent jobs whose own commit is most of their cost. Each job's final write still commits with its
   * `done`.
   */
  groupFinish?: boolean;
  /**
   * `interrupted`: the job failed without its handler running this time, because the last attempt it had never
   * finished (its instance died mid-run, its lease ran out): what that attempt did outside the database is unknown.
   */
  onFailure?: (payload: P, ctx: { db: Executor; job: JobRow; error: string; interrupted: boolean }) => Promise<void>;
}

/** Returned by a handler: its final write, committed with the job's `done`. */
export type JobFinish = (tx: Executor) => Promise<void>;

export interface JobContext {
  job: JobRow;
  /** 1 on the first run. */
  attempt: number;
  /** True on the run after which no retry follows. */
  lastAttempt: boolean;
  signal: AbortSignal;
}

/** Thrown by a handler when retrying cannot help (e.g. a 5xx SMTP answer): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

/** Thrown by a handler when the other side named when to come back (e.g. HTTP `Retry-After`): retried no earlier. */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly notBeforeMs: number,
  ) {
    super(message);
    this.name = "RetryLaterError";
  }
}

/**
 * Thrown by a handler that did not attempt its work and should not have (e.g. a webhook endpoint failing, whose
 * one request at a time is already out): the job waits `delayMs` and this run does not count as an attempt.
 */
export class DeferJobError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
    /** Runs once the job is back in the queue: whatever would wake it early can find it from then on. */
    readonly afterPutBack?: () => void,
  ) {
    super(message);
    this.name = "DeferJobError";
  }
}

export function defineJobKind<P>(def: JobKind<P>): JobKind<P> {
  return def;
}

export const resolveNumber = (v: number | (() => number) | undefined, fallback: number) => (typeof v === "function" ? v() : (v ?? fallback));
