import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { z } from "zod";
import { changeChannel } from "@/lib/db/change-channel";
import { storableJson } from "@/lib/db/statement";
import { newId } from "@/lib/ids";
import { resolveNumber, type JobKind } from "@/lib/jobs/define-job-kind";
import { inheritedRunAt } from "@/lib/jobs/queue-place";
import { insertJobs } from "@/lib/jobs/statements";

/** Wakes the job runners of every instance: the kind of the jobs that became due. */
export const jobWakeups = changeChannel("brynth_jobs", z.string());

export interface EnqueueOptions {
  projectId: string | null;
  /** Default now, or the running job's place in the queue when a job enqueues it (queue-place.ts). */
  runAt?: Date;
  /** A second enqueue with the same kind and key returns the first job instead. */
  dedupeKey?: string;
}

/** Adds a job in the caller's transaction; the runners are woken once it commits. */
export async function enqueueJob<P>(tx: Executor, kind: JobKind<P>, payload: P, opts: EnqueueOptions): Promise<string> {
  const [id] = await enqueueJobs(tx, kind, [{ payload, ...opts }]);
  return id;
}

/**
 * Many jobs of one kind in one INSERT and one NOTIFY (e.g. an email_send to 50 recipients). Returns their ids in
 * order; a job whose dedupe key exists already gives the existing job's id.
 */
export async function enqueueJobs<P>(tx: Executor, kind: JobKind<P>, items: Array<{ payload: P } & EnqueueOptions>): Promise<string[]> {
  if (items.length === 0) return [];
  const maxAttempts = resolveNumber(kind.maxAttempts, 5);
  const place = inheritedRunAt(kind.kind) ?? null;
  const rows = items.map((it) => ({
    id: newId("job"),
    project_id: it.projectId,
    kind: kind.kind,
    payload: kind.payload.parse(it.payload) as object,
    run_at: it.runAt ?? place,
    max_attempts: maxAttempts,
    dedupe_key: it.dedupeKey ?? null,
  }));
  const inserted = new Set((await insertJobs(tx, storableJson(rows))).map((r) => r.id));
  const ids: string[] = [];
  for (const r of rows) {
    if (inserted.has(r.id) || r.dedupe_key === null) {
      ids.push(r.id);
      continue;
    }
    const [first] = await tx.select({ id: jobs.id }).from(jobs).where(sql`${jobs.kind} = ${kind.kind} and ${jobs.dedupeKey} = ${r.dedupe_key}`);
    ids.push(first?.id ?? r.id);
  }
  if (inserted.size > 0) jobWakeups.notify(tx, kind.kind);
  return ids;
}
