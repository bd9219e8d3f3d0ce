import { and, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { JobRunner } from "@/lib/jobs/job-runner";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
const DRAFTS = 200;
const PER_PROJECT = 40;

const runners: JobRunner[] = [];
const pools: Array<{ end: (o: { timeout: number }) => Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  await Promise.all(pools.map((p) => p.end({ timeout: 5 })));
});

/** A second instance's database: its own connection pool, so the two runners really contend in Postgres. */
async function secondDb() {
  const { default: postgres } = await import("postgres");
  const { openPostgres } = await import("@/lib/db/postgres-driver");
  // setup-db.ts points DATABASE_URL at this test file's own database.
  const pool = postgres(process.env.DATABASE_URL ?? "", { max: 4, onnotice: () => {} });
  pools.push(pool);
  return openPostgres(pool);
}

// PGlite is one process by design: two instances share state only through Postgres.
describe.runIf(onPostgres)("scheduled drafts with two job runners on one Postgres", () => {
  it(`sends each of ${DRAFTS} drafts due at once exactly once`, { timeout: 180_000 }, async () => {
    // The default quota is 50 messages a project a day: the drafts are spread over projects that each stay within it.
    const ids: string[] = [];
    const boxes: string[] = [];
    for (let project = 0; project < DRAFTS / PER_PROJECT; project++) {
      const p = await projectWithKey(`Two runners ${project}`);
      const from = await seedMailbox(p.project.id);
      const to = await seedMailbox(p.project.id);
      boxes.push(to.id);
      for (let i = 0; i < PER_PROJECT; i++) {
        const d = await call(createDraft, p.mcp, {
          inboxId: from.id,
          to: [to.address],
          subject: `Due ${i}`,
          text: "x",
          sendAt: new Date(Date.now() + 3_600_000).toISOString(),
        });
        ids.push(d.draft_id);
      }
    }
    const db = await getDb();
    // Every one comes due in the same instant.
    await db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(
        and(
          eq(jobs.kind, "mail.send_draft"),
          inArray(
            jobs.dedupeKey,
            ids.map((id) => `drf:${id}:1`),
          ),
        ),
      );

    // Each runner's finished jobs are counted (runJob commits a job's final write with db.transaction), to show
    // that both instances took part; any error either one meets fails the test.
    const finished = [0, 0];
    const errors: unknown[] = [];
    for (const [i, handle] of [db, await secondDb()].entries()) {
      // Patched in place: the handle itself must stay the one lib/db registered.
      const transaction = handle.transaction.bind(handle);
      handle.transaction = ((fn: Parameters<typeof transaction>[0]) => {
        finished[i]++;
        return transaction(fn);
      }) as typeof handle.transaction;
      runners.push(new JobRunner(handle, { concurrency: 4, pollMs: 200, onError: (err) => errors.push(err) }));
    }
    await Promise.all(runners.map((r) => r.start()));

    await expect
      .poll(async () => (await db.select({ id: mailDrafts.id }).from(mailDrafts).where(inArray(mailDrafts.id, ids))).length, {
        timeout: 120_000,
        interval: 250,
      })
      .toBe(0);
    const sent = await db
      .select({ draftId: mailMessages.draftId })
      .from(mailMessages)
      .where(and(eq(mailMessages.direction, "outbound"), inArray(mailMessages.draftId, ids)));
    expect(sent).toHaveLength(DRAFTS);
    expect(new Set(sent.map((m) => m.draftId)).size).toBe(DRAFTS);
    expect(errors).toEqual([]);
    expect(finished[0]).toBeGreaterThan(0);
    expect(finished[1]).toBeGreaterThan(0);
    const done = await db
      .select({ status: jobs.status })
      .from(jobs)
      .where(and(eq(jobs.kind, "mail.send_draft"), like(jobs.dedupeKey, "drf:%")));
    expect(done.every((j) => j.status === "done")).toBe(true);
    // And each arrived once in the recipient's inbox.
    await expect
      .poll(async () => (await db.select({ id: mailMessages.id }).from(mailMessages).where(inArray(mailMessages.mailboxId, boxes))).length, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(DRAFTS);
  });
});
