import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { jobs, type JobRow } from "@/lib/db/schema/jobs";

/** How long a claim holds a job; a handler is aborted well before (its kind's timeout). */
export const CLAIM_LEASE_S = 300;

/**
 * Takes up to `limit` due jobs. SKIP LOCKED lets concurrent runners (threads of one process or other instances)
 * pick disjoint rows without waiting on each other; the scan uses only the partial index of pending rows.
 */
export async function claimJobs(db: Executor, opts: { limit: number; kinds?: readonly string[] }): Promise<JobRow[]> {
  if (opts.limit <= 0) return [];
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, "pending"), lte(jobs.runAt, sql`now()`), opts.kinds ? inArray(jobs.kind, [...opts.kinds]) : undefined))
    .orderBy(asc(jobs.runAt))
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  return db
    .update(jobs)
    .set({
      status: "running",
      attempts: sql`${jobs.attempts} + 1`,
      lockedUntil: sql`now() + make_interval(secs => ${CLAIM_LEASE_S})`,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(jobs.id, due), eq(jobs.status, "pending")))
    .returning();
}

/** Jobs whose runner died mid-run (lease over) become pending again; attempts already count the lost run. */
export async function reclaimExpiredJobs(db: Executor): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: "pending", runAt: sql`now()`, lockedUntil: null, lastError: "the runner stopped before finishing (lease expired)", updatedAt: sql`now()` })
    .where(and(eq(jobs.status, "running"), lte(jobs.lockedUntil, sql`now()`)))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Finished jobs are kept a week for inspection, then deleted. */
export async function purgeFinishedJobs(db: Executor, olderThanDays = 7): Promise<void> {
  await db.delete(jobs).where(and(inArray(jobs.status, ["done", "failed"]), lte(jobs.finishedAt, sql`now() - make_interval(days => ${olderThanDays})`)));
}
