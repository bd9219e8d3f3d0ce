import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { notify } from "@/lib/db/notify";
import { newId } from "@/lib/ids";
import { resolveNumber, type JobKind } from "@/lib/jobs/define-job-kind";

export const JOBS_CHANNEL = "brynth_jobs";

export interface EnqueueOptions {
  projectId: string | null;
  /** Default now. */
  runAt?: Date;
  /** A second enqueue with the same kind and key returns the first job instead. */
  dedupeKey?: string;
}

/** Adds a job in the caller's transaction; the wake-up NOTIFY is delivered when it commits. */
export async function enqueueJob<P>(tx: Executor, kind: JobKind<P>, payload: P, opts: EnqueueOptions): Promise<string> {
  const id = newId("job");
  const inserted = await tx
    .insert(jobs)
    .values({
      id,
      projectId: opts.projectId,
      kind: kind.kind,
      payload: kind.payload.parse(payload) as object,
      runAt: opts.runAt ?? sql`now()`,
      maxAttempts: resolveNumber(kind.maxAttempts, 5),
      dedupeKey: opts.dedupeKey ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  if (inserted.length === 0) {
    const [first] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(sql`${jobs.kind} = ${kind.kind} and ${jobs.dedupeKey} = ${opts.dedupeKey ?? null}`);
    if (first) return first.id;
  }
  await notify(tx, JOBS_CHANNEL, kind.kind);
  return id;
}
