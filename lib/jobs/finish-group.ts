import type { Db, Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/statement";
import type { JobRow } from "@/lib/db/schema/jobs";
import type { JobFinish } from "@/lib/jobs/define-job-kind";
import { inQueuePlace } from "@/lib/jobs/queue-place";

/**
 * Marks many jobs done in one statement, each fenced as runJob fences it (same claim: id and attempts, still
 * running), so a runner that lost its lease cannot overwrite a newer claim's outcome. Returns the jobs it marked.
 */
const markDone = statement<{ id: string }, [claims: string]>(`
  update jobs j set status = 'done', finished_at = now(), locked_until = null, updated_at = now()
  from jsonb_to_recordset($1::jsonb) as c(id text, attempts int)
  where j.id = c.id and j.attempts = c.attempts and j.status = 'running'
  returning j.id`);

/**
 * A run whose lease ran out before it finished: another claim holds the job (or will), so this run's final write
 * must not commit. Marking it done first, before that write, made the fence only keep `done` from being written
 * twice: a late local delivery still committed its ledger entry and message.delivered a second time.
 */
export class LeaseLostError extends Error {
  constructor(readonly jobIds: string[]) {
    super(`lease lost before the result was committed: ${jobIds.join(", ")}`);
  }
}

/** `done` for every claim, first in the transaction (the row locks fence out a newer claim), or LeaseLostError. */
async function markAllDone(tx: Tx | Db, jobs: JobRow[]): Promise<void> {
  const marked = new Set((await markDone(tx, JSON.stringify(jobs.map((j) => ({ id: j.id, attempts: j.attempts }))))).map((r) => r.id));
  const lost = jobs.filter((j) => !marked.has(j.id)).map((j) => j.id);
  if (lost.length > 0) throw new LeaseLostError(lost);
}

interface Item {
  job: JobRow;
  finish: JobFinish | undefined;
  resolve: (committed: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * A success's final write and its job's `done`, committed as one transaction of its own (the ungrouped path), or
 * nothing at all when the lease was lost (false).
 */
export async function commitFinish(db: Db, job: JobRow, finish: JobFinish | undefined): Promise<boolean> {
  try {
    if (!finish) await markAllDone(db, [job]);
    else
      await db.transaction(async (tx) => {
        await markAllDone(tx, [job]);
        await inQueuePlace(job, () => finish(tx));
      });
    return true;
  } catch (err) {
    if (err instanceof LeaseLostError) return false;
    throw err;
  }
}

/**
 * Group commit of job successes (a kind opts in with `groupFinish`): the successes that finish while one group is
 * committing wait and commit together in the next, up to `max`, each one's final write and one `done` statement
 * for all in ONE transaction. Every commit flushes the WAL, and on a small machine that and the round trips are
 * most of a fast job's cost: a webhook lane finishing 8 deliveries at a time makes one commit instead of eight.
 * A lone success commits at once (no added wait). Nothing changes in what commits together with what for each job:
 * its `done` (first, fenced) and its final write still commit or roll back as one. If the group's transaction fails (one final
 * write's error, a deadlock), each job is committed again on its own, so one bad job fails only itself.
 */
export class FinishGroup {
  private queue: Item[] = [];
  private flushing = false;

  constructor(
    private db: Db,
    private max = 64,
  ) {}

  /** Resolves true once committed, false when the lease was lost (nothing of the run committed). */
  commit(job: JobRow, finish: JobFinish | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
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
          const committed = await commitGroup(this.db, group);
          for (const [i, it] of group.entries()) it.resolve(committed[i]);
        } catch {
          // A lost lease among them too: committed alone, only that one's run is dropped.
          await Promise.all(group.map((it) => commitFinish(this.db, it.job, it.finish).then(it.resolve, it.reject)));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

/** Whether each item committed; throws when the group's transaction fails (a lost lease among them included). */
async function commitGroup(db: Db, group: Item[]): Promise<boolean[]> {
  if (group.length === 1) return [await commitFinish(db, group[0].job, group[0].finish)];
  await db.transaction(async (tx) => {
    await markAllDone(
      tx,
      group.map((it) => it.job),
    );
    // One after another: a final write may read (e.g. a count), and one connection runs one statement at a time.
    // Each in its own job's place (queue-place.ts): the group's flush runs in whichever job's context started it.
    for (const { job, finish } of group) if (finish) await inQueuePlace(job, () => finish(tx));
  });
  return group.map(() => true);
}
