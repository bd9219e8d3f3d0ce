import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import type { JobKind } from "@/lib/jobs/define-job-kind";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { ABANDON_AFTER_MS, runJob } from "@/lib/jobs/run-job";

// Kinds of this test's own, found beside the real ones.
const kinds = new Map<string, JobKind<Record<string, unknown>>>();
vi.mock("@/lib/jobs/job-kinds", async (original) => {
  const real = (await original()) as typeof import("@/lib/jobs/job-kinds");
  return { ...real, findJobKind: (kind: string) => kinds.get(kind) ?? real.findJobKind(kind) };
});

/** Runs one job of a kind whose handler is `handler`, and returns the outcome and the job's row after it. */
async function runOnce(name: string, handler: JobKind<Record<string, unknown>>["handler"], extra: Partial<JobKind<Record<string, unknown>>> = {}) {
  const kind: JobKind<Record<string, unknown>> = { kind: `test.errors-${name}`, payload: z.object({}).passthrough(), maxAttempts: 3, handler, ...extra };
  kinds.set(kind.kind, kind);
  const db = await getDb();
  await db.delete(jobs).where(eq(jobs.kind, kind.kind));
  const id = await db.transaction((tx) => enqueueJob(tx, kind, {}, { projectId: null }));
  const [claimed] = await claimJobs(db, { limit: 1, kinds: [kind.kind] });
  const outcome = await runJob(db, claimed);
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return { outcome, status: row.status, lastError: row.lastError };
}

// Found by helper-104: each of these left the job `running` with no reason, or recorded "[object Object]".
describe("what a failed run records", () => {
  it("a final write that fails: a failed attempt with its reason, not a job left running until its lease ends", async () => {
    const failingWrite = async () => async () => {
      throw new Error("the final write failed");
    };
    expect(await runOnce("final-write", failingWrite)).toEqual({ outcome: "retry", status: "pending", lastError: "the final write failed" });
  });

  // Found by helper-104: a handler that ignored its signal held its slot and lease forever, and stop() hung on it.
  it("a handler that ignores its deadline: given up on a few seconds after it, a failed attempt saying so", { timeout: 20_000 }, async () => {
    const ignoresSignal = () => new Promise<never>(() => {});
    expect(await runOnce("hang", ignoresSignal, { timeoutMs: 200 })).toEqual({
      outcome: "retry",
      status: "pending",
      lastError: `did not stop within ${ABANDON_AFTER_MS / 1000} s of being timed out`,
    });
  });

  it("a thrown object's own message, and a reason for one that cannot even be made a string", async () => {
    expect(await runOnce("object", async () => Promise.reject({ message: "relay said no", code: 7 }))).toMatchObject({
      status: "pending",
      lastError: "relay said no",
    });
    expect(await runOnce("no-prototype", async () => Promise.reject(Object.create(null)))).toMatchObject({
      outcome: "retry",
      status: "pending",
      lastError: "job failed (its error could not be read)",
    });
  });
});
