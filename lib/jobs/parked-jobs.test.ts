import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inArray, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { query } from "@/lib/db/statement";
import { newId } from "@/lib/ids";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import type { JobKind } from "@/lib/jobs/define-job-kind";
import { enqueueJobs } from "@/lib/jobs/enqueue-job";

/** Jobs written with a time still to come wait outside the claim's index (schema/jobs.ts, parked) until it comes. */
const made: string[] = [];
afterEach(async () => {
  await (await getDb()).delete(jobs).where(inArray(jobs.kind, made.splice(0)));
});

function testKind(): JobKind<Record<string, never>> {
  const kind = `test.parked-${newId("k")}`;
  made.push(kind);
  return { kind, payload: z.object({}).strict() as z.ZodType<Record<string, never>>, handler: async () => {} };
}
const HOUR = 3_600_000;

async function enqueue(kind: JobKind<Record<string, never>>, runAts: (Date | undefined)[]) {
  const db = await getDb();
  return db.transaction((tx) =>
    enqueueJobs(
      tx,
      kind,
      runAts.map((runAt) => ({ payload: {}, projectId: null, runAt })),
    ),
  );
}
async function rows(ids: string[]) {
  const found = await (await getDb()).select().from(jobs).where(inArray(jobs.id, ids));
  return ids.map((id) => found.find((r) => r.id === id)!);
}
/** As if the jobs' time had come: run_at in the past, still parked. */
async function timeComes(ids: string[]) {
  await (await getDb()).update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(inArray(jobs.id, ids));
}

describe("parked jobs", () => {
  it("parks a job enqueued for later, never one due now or earlier", async () => {
    const ids = await enqueue(testKind(), [new Date(Date.now() + HOUR), undefined, new Date(Date.now() - 1000)]);
    expect((await rows(ids)).map((r) => [r.status, r.parked])).toEqual([
      ["pending", true],
      ["pending", false],
      ["pending", false],
    ]);
  });

  it("claims a parked job in the first claim after its time, not before", async () => {
    const kind = testKind();
    const [id] = await enqueue(kind, [new Date(Date.now() + HOUR)]);
    const db = await getDb();
    expect(await claimJobs(db, { limit: 5, kinds: [kind.kind] })).toEqual([]);
    await timeComes([id]);
    expect((await rows([id]))[0].parked).toBe(true);
    const claimed = await claimJobs(db, { limit: 5, kinds: [kind.kind] });
    expect(claimed.map((j) => j.id)).toEqual([id]);
    expect((await rows([id]))[0]).toMatchObject({ status: "running", parked: false, attempts: 1 });
  });

  it("moves back only the claiming lane's kinds", async () => {
    const [mine, other] = [testKind(), testKind()];
    const [a] = await enqueue(mine, [new Date(Date.now() + HOUR)]);
    const [b] = await enqueue(other, [new Date(Date.now() + HOUR)]);
    await timeComes([a, b]);
    const db = await getDb();
    expect((await claimJobs(db, { limit: 5, kinds: [mine.kind] })).map((j) => j.id)).toEqual([a]);
    expect((await rows([b]))[0]).toMatchObject({ status: "pending", parked: true });
    // A lane of every kind but `other` (as the default lane is) leaves it parked too.
    expect(await claimJobs(db, { limit: 5, exceptKinds: [other.kind] })).toEqual([]);
    expect((await rows([b]))[0].parked).toBe(true);
    expect((await claimJobs(db, { limit: 5, kinds: [other.kind] })).map((j) => j.id)).toEqual([b]);
  });

  it("hands each job to one of several claimers moving them back at once", async () => {
    const kind = testKind();
    const ids = await enqueue(
      kind,
      Array.from({ length: 150 }, () => new Date(Date.now() + HOUR)),
    );
    await timeComes(ids);
    const db = await getDb();
    const seen: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let empty = 0; empty < 3; ) {
          const got = await db.transaction((tx) => claimJobs(tx, { limit: 7, kinds: [kind.kind] }));
          seen.push(...got.map((j) => j.id));
          empty = got.length === 0 ? empty + 1 : 0;
        }
      }),
    );
    expect(seen.length).toBe(150);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it("migration 0033 parks the pending jobs written before it whose time is still to come", async () => {
    const kind = testKind();
    const db = await getDb();
    const [later, due, running] = [newId("job"), newId("job"), newId("job")];
    const row = { kind: kind.kind, projectId: null, payload: {}, maxAttempts: 3 };
    await db.insert(jobs).values([
      { ...row, id: later, runAt: new Date(Date.now() + HOUR) },
      { ...row, id: due, runAt: new Date(Date.now() - 1000) },
      { ...row, id: running, status: "running", runAt: new Date(Date.now() + HOUR) },
    ]);
    const text = readFileSync(join(process.cwd(), "drizzle", "0033_jobs_parked.sql"), "utf8");
    const update = text.split("--> statement-breakpoint").find((s) => s.trim().startsWith("UPDATE"));
    await query(db, sql.raw(update!));
    expect((await rows([later, due, running])).map((r) => r.parked)).toEqual([true, false, false]);
  });
});
