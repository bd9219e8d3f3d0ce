import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { newId } from "@/lib/ids";
import type { JobKind } from "@/lib/jobs/define-job-kind";
import { JobRunner } from "@/lib/jobs/job-runner";

// Kinds of this test's own, found beside the real ones.
const custom = new Map<string, JobKind<Record<string, unknown>>>();
vi.mock("@/lib/jobs/job-kinds", async (orig) => {
  const real = (await orig()) as typeof import("@/lib/jobs/job-kinds");
  return { ...real, findJobKind: (k: string) => custom.get(k) ?? real.findJobKind(k) };
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
afterEach(() => vi.useRealTimers());

/**
 * A dead instance's job (running, its lease over by the database's clock) found by a live runner after `meanwhile`:
 * whether the runner took it back and ran it.
 */
async function orphanRunsAfter(name: string, meanwhile: () => void) {
  const db = await getDb();
  let ran = 0;
  const k: JobKind<Record<string, unknown>> = { kind: `test.${name}`, payload: z.object({}).passthrough(), handler: async () => void ran++ };
  custom.set(k.kind, k);
  const runner = new JobRunner(db, { concurrency: 1, pollMs: 100, leaseSeconds: 1 });
  await runner.start();
  await sleep(300); // its first loop has reclaimed once
  meanwhile();
  const id = newId("job");
  await db
    .insert(jobs)
    .values({ id, projectId: null, kind: k.kind, payload: {}, maxAttempts: 3, status: "running", attempts: 1, lockedUntil: sql`now() - interval '1 second'` });
  for (let i = 0; i < 40 && ran === 0; i++) await sleep(100);
  vi.useRealTimers();
  await runner.stop();
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return { ran, status: row.status };
}

// Found by helper-104: the runner timed its lease reclaim and purges with Date.now() differences, so a wall clock
// stepped back (NTP, a restored VM) stopped it taking back a dead instance's jobs for as long as the step.
describe("wall clock stepped back (NTP) on a live runner", () => {
  it("control: without a clock step the expired job is taken back and run", async () => {
    expect(await orphanRunsAfter("orphan-control", () => {})).toEqual({ ran: 1, status: "done" });
  });

  it("still takes back a dead instance's expired job within a few lease periods", async () => {
    const stepBack = () => {
      // Only Date is faked; timers stay real.
      vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
      vi.setSystemTime(new Date(Date.now() - 3_600_000));
    };
    expect(await orphanRunsAfter("orphan", stepBack)).toEqual({ ran: 1, status: "done" });
  });
});
