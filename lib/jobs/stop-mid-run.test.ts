import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import type { JobKind } from "@/lib/jobs/define-job-kind";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { runJob } from "@/lib/jobs/run-job";

// A kind of this test's own, found beside the real ones.
const stoppable: JobKind<Record<string, unknown>> = {
  kind: "test.stop-mid-run",
  payload: z.object({}).passthrough(),
  maxAttempts: 1,
  // Runs until its runner stops it, as a send waiting on a slow relay does.
  handler: (_p, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("cancelled")))),
  onFailure: vi.fn(async () => {}),
};
vi.mock("@/lib/jobs/job-kinds", async (original) => {
  const real = (await original()) as typeof import("@/lib/jobs/job-kinds");
  return { ...real, findJobKind: (kind: string) => (kind === stoppable.kind ? stoppable : real.findJobKind(kind)) };
});

describe("a job its runner stops mid-run", () => {
  // Found by helper-104: the stopped run counted as an attempt, so a stop during the last one failed the job for
  // good (onFailure and all), where README promises jobs cut off at shutdown are left to be retried.
  it("is left to be retried with its attempt given back, even on its last attempt", async () => {
    const db = await getDb();
    // Left by an earlier run of this file on the same database: due by now, they would be claimed first.
    await db.delete(jobs).where(eq(jobs.kind, stoppable.kind));
    const id = await db.transaction((tx) => enqueueJob(tx, stoppable, {}, { projectId: null }));
    const [claimed] = await claimJobs(db, { limit: 1, kinds: [stoppable.kind] });
    expect(claimed).toMatchObject({ id, attempts: 1, maxAttempts: 1 });
    const stop = new AbortController();
    const run = runJob(db, claimed, stop.signal);
    stop.abort();
    expect(await run).toBe("retry");
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "pending", attempts: 0, lockedUntil: null });
    expect(row.lastError).toMatch(/^stopped with its instance: cancelled/);
    expect(stoppable.onFailure).not.toHaveBeenCalled();
  });
});
