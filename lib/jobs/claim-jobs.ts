import { and, asc, eq, getTableColumns, inArray, lte, notInArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { jobs, type JobRow } from "@/lib/db/schema/jobs";

/** How long a claim holds a job; a handler is aborted well before (its kind's timeout). */
export const CLAIM_LEASE_S = 300;

/**
 * Takes up to `limit` due jobs. SKIP LOCKED lets concurrent runners (threads of one process or other instances)
 * pick disjoint rows without waiting on each other; the scan uses only the partial index of pending rows.
 *
 * The due rows are picked in a CTE, which runs once: as an `id IN (subquery … LIMIT n FOR UPDATE SKIP LOCKED)` the
 * planner made a nested-loop semi join that ran the subquery again for every pending row, each run skipping the
 * rows the earlier ones had locked, so a claim of 2 took every due job (measured on PostgreSQL 15 and PGlite) and
 * no concurrency limit held.
 */
export async function claimJobs(
  db: Executor,
  opts: { limit: number; kinds?: readonly string[]; exceptKinds?: readonly string[]; leaseSeconds?: number },
): Promise<JobRow[]> {
  if (opts.limit <= 0) return [];
  const except = opts.exceptKinds?.length ? notInArray(jobs.kind, [...opts.exceptKinds]) : undefined;
  const due = db.$with("due").as(
    db
      .select({ dueId: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.status, "pending"), lte(jobs.runAt, sql`now()`), opts.kinds ? inArray(jobs.kind, [...opts.kinds]) : undefined, except))
      .orderBy(asc(jobs.runAt))
      .limit(opts.limit)
      .for("update", { skipLocked: true }),
  );
  return (
    db
      .with(due)
      .update(jobs)
      .set({
        status: "running",
        attempts: sql`${jobs.attempts} + 1`,
        lockedUntil: sql`now() + make_interval(secs => ${opts.leaseSeconds ?? CLAIM_LEASE_S})`,
        updatedAt: sql`now()`,
      })
      .from(due)
      .where(and(eq(jobs.id, due.dueId), eq(jobs.status, "pending")))
      // The job's columns only (a bare returning() would add the CTE's).
      .returning(getTableColumns(jobs))
  );
}

/**
 * The runner's heartbeat: its running jobs' leases pushed `leaseSeconds` on, each fenced on its claim (id and
 * attempts, still running), so a lease can be short — a dead instance's jobs come back soon — while a live runner
 * keeps its long jobs.
 */
export async function extendLeases(db: Executor, claims: readonly { id: string; attempts: number }[], leaseSeconds: number): Promise<void> {
  if (claims.length === 0) return;
  await db.execute(sql`
    update jobs j set locked_until = now() + make_interval(secs => ${leaseSeconds})
    from jsonb_to_recordset(${JSON.stringify(claims)}::jsonb) as c(id text, attempts int)
    where j.id = c.id and j.attempts = c.attempts and j.status = 'running'`);
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
