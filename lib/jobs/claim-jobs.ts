import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { jobs, type JobRow } from "@/lib/db/schema/jobs";
import { claimDueJobs } from "@/lib/jobs/statements";

/** How long a claim holds a job; a handler is aborted well before (its kind's timeout). */
export const CLAIM_LEASE_S = 300;

/**
 * A lane's fair shares (claimDueJobs): how many of its slots one project holds (counting its jobs of the lane running
 * on every instance) before the others' due jobs come first and it keeps `reserve` slots free.
 */
export interface LaneShares {
  share: number;
  reserve: number;
}

/**
 * Takes up to `limit` due jobs, the oldest of each project in turn (claimDueJobs). Parked jobs whose time came are
 * moved back by the claim itself, for the next one to see: when it moved some, it claims once more at once. Without
 * `shares` (a one-off claim): no project is held back, though the one running fewer still comes first.
 */
export async function claimJobs(
  db: Executor,
  opts: { limit: number; kinds?: readonly string[]; exceptKinds?: readonly string[]; leaseSeconds?: number; shares?: LaneShares },
): Promise<JobRow[]> {
  const kinds = opts.kinds ? [...opts.kinds] : null;
  const except = opts.exceptKinds?.length ? [...opts.exceptKinds] : null;
  const share = opts.shares?.share ?? opts.limit;
  const reserve = opts.shares?.reserve ?? 0;
  const taken: JobRow[] = [];
  for (let round = 0; round < 2 && taken.length < opts.limit; round++) {
    const rows = await claimDueJobs(db, opts.limit - taken.length, kinds, except, opts.leaseSeconds ?? CLAIM_LEASE_S, share, reserve);
    for (const { promoted, ...job } of rows) if (job.id !== null) taken.push(job as JobRow);
    if (rows[0].promoted === 0) break;
  }
  return taken;
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
    .set({
      status: "pending",
      runAt: sql`now()`,
      parked: false,
      lockedUntil: null,
      lastError: "the runner stopped before finishing (lease expired)",
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.status, "running"), lte(jobs.lockedUntil, sql`now()`)))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Finished jobs are kept a week for inspection, then deleted. */
export async function purgeFinishedJobs(db: Executor, olderThanDays = 7): Promise<void> {
  await db.delete(jobs).where(and(inArray(jobs.status, ["done", "failed"]), lte(jobs.finishedAt, sql`now() - make_interval(days => ${olderThanDays})`)));
}
