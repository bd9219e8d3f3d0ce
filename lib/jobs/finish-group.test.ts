import { describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { newId } from "@/lib/ids";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import type { JobFinish } from "@/lib/jobs/define-job-kind";
import { commitFinish, FinishGroup } from "@/lib/jobs/finish-group";

/** Claimed jobs of a kind of this test's own. */
async function claimed(db: Db, n: number, kind: string) {
  await db.insert(jobs).values(Array.from({ length: n }, () => ({ id: newId("job"), projectId: null, kind, payload: {}, maxAttempts: 3 })));
  return claimJobs(db, { limit: n, kinds: [kind] });
}

/** A final write that leaves a mark on the job's own row. */
const markFinished =
  (id: string): JobFinish =>
  async (tx) => {
    await tx.update(jobs).set({ lastError: "finished" }).where(eq(jobs.id, id));
  };

/** Counts the transactions `db` opens while `fn` runs. */
async function countTransactions(db: Db, fn: () => Promise<unknown>): Promise<number> {
  const original = db.transaction;
  let n = 0;
  db.transaction = ((f: Parameters<typeof original>[0]) => {
    n++;
    return original.call(db, f);
  }) as typeof original;
  try {
    await fn();
  } finally {
    db.transaction = original;
  }
  return n;
}

describe("FinishGroup", () => {
  it("commits successes of the same moment in one transaction, each final write with its job's done", async () => {
    const db = await getDb();
    const group = new FinishGroup(db);
    const batch = await claimed(db, 6, "test.group-a");
    const transactions = await countTransactions(db, () => Promise.all(batch.map((j, i) => group.commit(j, i % 2 === 0 ? markFinished(j.id) : undefined))));
    expect(transactions).toBe(1);
    const rows = await db
      .select()
      .from(jobs)
      .where(
        inArray(
          jobs.id,
          batch.map((j) => j.id),
        ),
      );
    expect(rows.every((r) => r.status === "done" && r.finishedAt !== null && r.lockedUntil === null)).toBe(true);
    const marked = new Set(rows.filter((r) => r.lastError === "finished").map((r) => r.id));
    expect(marked).toEqual(new Set(batch.filter((_, i) => i % 2 === 0).map((j) => j.id)));
  });

  // Found by helper-104: `done` was fenced, but written after the final write, whose effects committed anyway: a
  // local delivery that finished after its lease ran out (and another claim had run it) was ledgered twice.
  it("commits nothing of a run whose lease was lost, alone or in a group, and the others of its group in full", async () => {
    const db = await getDb();
    const [alone, ...batch] = await claimed(db, 4, "test.group-lost");
    // Another claim took each of these over (its attempt counted), as after a lease expired.
    const takeOver = (id: string) =>
      db
        .update(jobs)
        .set({ attempts: sql`${jobs.attempts} + 1` })
        .where(eq(jobs.id, id));
    await takeOver(alone.id);
    expect(await commitFinish(db, alone, markFinished(alone.id))).toBe(false);
    await takeOver(batch[1].id);
    const group = new FinishGroup(db);
    const committed = await Promise.all(batch.map((j) => group.commit(j, markFinished(j.id))));
    expect(committed).toEqual([true, false, true]);
    const rows = new Map(
      (
        await db
          .select()
          .from(jobs)
          .where(
            inArray(
              jobs.id,
              [alone, ...batch].map((j) => j.id),
            ),
          )
      ).map((r) => [r.id, r]),
    );
    for (const lost of [alone, batch[1]]) expect(rows.get(lost.id)).toMatchObject({ status: "running", lastError: null });
    for (const done of [batch[0], batch[2]]) expect(rows.get(done.id)).toMatchObject({ status: "done", lastError: "finished" });
  });

  it("fails only the job whose final write fails: the others of its group are committed on their own", async () => {
    const db = await getDb();
    const group = new FinishGroup(db);
    const [bad, ...good] = await claimed(db, 4, "test.group-b");
    const broken: JobFinish = async (tx) => {
      await tx.execute(sql`select 1 / 0`);
    };
    const outcomes = await Promise.allSettled([group.commit(bad, broken), ...good.map((j) => group.commit(j, markFinished(j.id)))]);
    expect(outcomes[0].status).toBe("rejected");
    expect(outcomes.slice(1).every((o) => o.status === "fulfilled")).toBe(true);
    const [badRow] = await db.select().from(jobs).where(eq(jobs.id, bad.id));
    expect(badRow.status).toBe("running");
    const goodRows = await db
      .select()
      .from(jobs)
      .where(
        inArray(
          jobs.id,
          good.map((j) => j.id),
        ),
      );
    expect(goodRows.map((r) => [r.status, r.lastError])).toEqual(good.map(() => ["done", "finished"]));
  });

  it("does not mark done a job claimed again since (its lease was lost): the newer claim's outcome stands", async () => {
    const db = await getDb();
    const group = new FinishGroup(db);
    const [stale, fresh] = await claimed(db, 2, "test.group-c");
    // Another runner took `stale` back and claimed it again: one more attempt on the row.
    await db
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1` })
      .where(eq(jobs.id, stale.id));
    await Promise.all([group.commit(stale, undefined), group.commit(fresh, undefined)]);
    const rows = new Map(
      (
        await db
          .select()
          .from(jobs)
          .where(inArray(jobs.id, [stale.id, fresh.id]))
      ).map((r) => [r.id, r.status]),
    );
    expect(rows.get(stale.id)).toBe("running");
    expect(rows.get(fresh.id)).toBe("done");
  });
});
