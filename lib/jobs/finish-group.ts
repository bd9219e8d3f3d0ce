import type { Db, Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/statement";
import type { JobRow } from "@/lib/db/schema/jobs";
import type { JobFinish } from "@/lib/jobs/define-job-kind";
import { inQueuePlace } from "@/lib/jobs/queue-place";

/**
 * Marks many jobs done in one statement, each fenced as runJob fences it (same claim: id and attempts, still
 * running), so a runner that lost its lease cannot overwrite a newer claim's outcome.
 */
const markDone = statement<never, [claims: string]>(`
  update jobs j set status = 'done', finished_at = now(), locked_until = null, updated_at = now()
  from jsonb_to_recordset($1::jsonb) as c(id text, attempts int)
  where j.id = c.id and j.attempts = c.attempts and j.status = 'running'`);

interface Item {
  job: JobRow;
  finish: JobFinish | undefined;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** A success's final write and its job's `done`, committed as one transaction of its own (the ungrouped path). */
export async function commitFinish(db: Db, job: JobRow, finish: JobFinish | undefined): Promise<void> {
  const claims = JSON.stringify([{ id: job.id, attempts: job.attempts }]);
  if (!finish) {
    await markDone(db, claims);
    return;
  }
  await db.transaction(async (tx) => {
    await inQueuePlace(job, () => finish(tx));
    // Nothing reads its result: it goes out with the COMMIT instead of waiting a round trip before it.
    markDone.withCommit(tx as Tx, claims);
  });
}

/**
 * Group commit of job successes (a kind opts in with `groupFinish`): the successes that finish while one group is
 * committing wait and commit together in the next, up to `max`, each one's final write and one `done` statement
 * for all in ONE transaction. Every commit flushes the WAL, and on a small machine that and the round trips are
 * most of a fast job's cost: a webhook lane finishing 8 deliveries at a time makes one commit instead of eight.
 * A lone success commits at once (no added wait). Nothing changes in what commits together with what for each job:
 * its final write and its `done` still commit or roll back as one. If the group's transaction fails (one final
 * write's error, a deadlock), each job is committed again on its own, so one bad job fails only itself.
 */
export class FinishGroup {
  private queue: Item[] = [];
  private flushing = false;

  constructor(
    private db: Db,
    private max = 64,
  ) {}

  commit(job: JobRow, finish: JobFinish | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ job, finish, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      // Successes of the same tick join the first group.
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.max);
        try {
          await commitGroup(this.db, group);
          for (const it of group) it.resolve();
        } catch {
          await Promise.all(group.map((it) => commitFinish(this.db, it.job, it.finish).then(it.resolve, it.reject)));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

async function commitGroup(db: Db, group: Item[]): Promise<void> {
  if (group.length === 1) return commitFinish(db, group[0].job, group[0].finish);
  const claims = JSON.stringify(group.map((it) => ({ id: it.job.id, attempts: it.job.attempts })));
  await db.transaction(async (tx) => {
    // One after another: a final write may read (e.g. a count), and one connection runs one statement at a time.
    // Each in its own job's place (queue-place.ts): the group's flush runs in whichever job's context started it.
    for (const { job, finish } of group) if (finish) await inQueuePlace(job, () => finish(tx));
    markDone.withCommit(tx as Tx, claims);
  });
}
