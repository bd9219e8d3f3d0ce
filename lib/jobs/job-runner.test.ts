import { afterAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { newId } from "@/lib/ids";
import { backoffMs, scheduledDelayMs } from "@/lib/jobs/backoff";
import { claimJobs, reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { JobRunner } from "@/lib/jobs/job-runner";
import { runJob } from "@/lib/jobs/run-job";
import { sendEmail } from "@/lib/mail/outbound/send-email";
import { seedProject } from "@/lib/testing/seed";
import { waitFor } from "@/lib/mail/__tests__/helpers";

const insertJobs = async (n: number, kind: string, extra: Partial<typeof jobs.$inferInsert> = {}) => {
  const db = await getDb();
  const ids = Array.from({ length: n }, () => newId("job"));
  await db.insert(jobs).values(ids.map((id) => ({ id, projectId: null, kind, payload: {}, maxAttempts: 3, ...extra })));
  return ids;
};

let runner: JobRunner | null = null;
afterAll(async () => {
  await runner?.stop();
});

describe("job runner", () => {
  it("backs off exponentially with jitter, capped", () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(4, 1000, 60_000, () => 1)).toBe(8000);
    expect(backoffMs(20, 1000, 60_000, () => 1)).toBe(60_000);
    expect(backoffMs(20, 1000, 60_000, () => 0)).toBe(30_000);
  });

  it("follows a fixed schedule, never earlier than published or asked, with a capped ask", () => {
    const schedule = [60_000, 300_000, 3_600_000];
    expect(scheduledDelayMs(1, schedule, 0, () => 0)).toBe(60_000);
    expect(scheduledDelayMs(2, schedule, 0, () => 1)).toBe(330_000);
    expect(scheduledDelayMs(9, schedule, 0, () => 0)).toBe(3_600_000);
    expect(scheduledDelayMs(1, schedule, 120_000, () => 0)).toBe(120_000);
    expect(scheduledDelayMs(2, schedule, 1000, () => 0)).toBe(300_000);
    expect(scheduledDelayMs(1, schedule, 10 ** 12, () => 0)).toBe(3_600_000);
  });

  it("hands each due job to exactly one of several concurrent claimers", async () => {
    const ids = await insertJobs(120, "test.claim");
    await insertJobs(5, "test.claim", { runAt: new Date(Date.now() + 3_600_000) }); // not due
    const db = await getDb();
    const seen: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (;;) {
          const got = await db.transaction((tx) => claimJobs(tx, { limit: 7, kinds: ["test.claim"] }));
          if (got.length === 0) return;
          seen.push(...got.map((j) => j.id));
        }
      }),
    );
    expect(seen.length).toBe(120);
    expect(new Set(seen)).toEqual(new Set(ids));
    const rows = await db.select().from(jobs).where(inArray(jobs.id, ids));
    expect(rows.every((r) => r.status === "running" && r.attempts === 1 && r.lockedUntil)).toBe(true);
  });

  it("takes back jobs whose runner died (lease expired)", async () => {
    const [id] = await insertJobs(1, "test.lost", { status: "running", attempts: 1, lockedUntil: new Date(Date.now() - 1000) });
    const db = await getDb();
    expect(await reclaimExpiredJobs(db)).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "pending", parked: false, attempts: 1 });
    expect(row.lastError).toContain("lease expired");
  });

  it("leaves a job of a kind this build does not know for a newer instance", async () => {
    await insertJobs(1, "test.unknown");
    const db = await getDb();
    const [claimed] = await claimJobs(db, { limit: 1, kinds: ["test.unknown"] });
    const ran = Date.now();
    expect(await runJob(db, claimed)).toBe("retry");
    const returned = Date.now();
    const [row] = await db.select().from(jobs).where(eq(jobs.id, claimed.id));
    expect(row).toMatchObject({ status: "pending", parked: true, attempts: 0 });
    // A minute after the run, which lies between the two readings of the clock.
    expect(row.runAt.getTime()).toBeGreaterThanOrEqual(ran + 60_000);
    expect(row.runAt.getTime()).toBeLessThanOrEqual(returned + 60_000);
  });

  it("wakes on NOTIFY when a job is enqueued, runs it, and stops cleanly", async () => {
    const db = await getDb();
    // A long poll interval: only the NOTIFY of the enqueue can wake the runner in time.
    runner = new JobRunner(db, { concurrency: 2, pollMs: 60_000 });
    await runner.start();
    const { actor } = await seedProject({ name: "Runner" });
    const sent = await db.transaction((tx) =>
      sendEmail(tx, { actor, to: ["runner@brynth.localhost", "nobody-here@brynth.localhost"], subject: "s", text: "t", attachments: [], reply_to_inbox: true }),
    );
    const ids = sent.messages.map((m) => m.message_id);
    const rows = await waitFor(async () => {
      const r = await db.select().from(mailMessages).where(inArray(mailMessages.id, ids));
      return r.every((m) => m.status === "sent" || m.status === "failed") && r;
    }, 10_000);
    // runner@… is the project's own address (delivered locally); nobody-here@… does not exist (fails for good).
    const status = (id: string) => rows.find((r) => r.id === id)!.status;
    expect([status(ids[0]), status(ids[1])]).toEqual(["sent", "failed"]);
    // Delivery jobs are keyed by their delivery (one per message here).
    const routes = await db.select({ id: mailDeliveries.id }).from(mailDeliveries).where(inArray(mailDeliveries.messageId, ids));
    const done = await db
      .select()
      .from(jobs)
      .where(
        inArray(
          jobs.dedupeKey,
          routes.map((r) => r.id),
        ),
      );
    expect(done.map((j) => j.status).sort()).toEqual(["done", "failed"]);
    expect(done.every((j) => j.finishedAt)).toBe(true);
    await runner.stop();
    runner = null;
  });
});
