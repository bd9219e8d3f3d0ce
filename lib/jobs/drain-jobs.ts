import { getDb } from "@/lib/db/client";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { runJob } from "@/lib/jobs/run-job";

/** Runs one round: claims up to `limit` due jobs and runs them. Returns how many ran. */
export async function runJobsOnce(opts: { limit?: number; kinds?: readonly string[] } = {}): Promise<number> {
  const db = await getDb();
  const claimed = await claimJobs(db, { limit: opts.limit ?? 10, kinds: opts.kinds });
  await Promise.all(claimed.map((job) => runJob(db, job)));
  return claimed.length;
}

/** For tests and scripts: runs due jobs until none is left (retries scheduled in the future are not due). */
export async function drainJobs(opts: { kinds?: readonly string[]; maxRounds?: number } = {}): Promise<number> {
  let total = 0;
  for (let round = 0; round < (opts.maxRounds ?? 100); round++) {
    const n = await runJobsOnce({ kinds: opts.kinds });
    if (n === 0) break;
    total += n;
  }
  return total;
}
