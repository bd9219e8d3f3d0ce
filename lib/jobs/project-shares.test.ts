import { inArray, or } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callbackJob } from "@/lib/approvals/callbacks/callback-job";
import { queueCallback } from "@/lib/approvals/callbacks/queue-callback";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { newId } from "@/lib/ids";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { JobRunner } from "@/lib/jobs/job-runner";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

/** Per-project shares of a job lane (job-runner.ts, claimDueJobs): one project's backlog never holds up another's. */
const settings = envSettings("OUTBOUND_");
let receiver: WebhookReceiver;
let runner: JobRunner | null = null;
const onPostgres = !!process.env.DATABASE_URL;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
});
/** The projects and kinds made here: their jobs are removed after each test, so no later runner works on them. */
const made = { projects: [] as string[], kinds: [] as string[] };
afterEach(async () => {
  receiver.releaseHanging();
  await runner?.stop();
  runner = null;
  const db = await getDb();
  await db.delete(jobs).where(or(inArray(jobs.projectId, made.projects), inArray(jobs.kind, made.kinds)));
});
afterAll(async () => {
  settings.restore();
  await receiver.close();
});

async function project() {
  const { id } = (await seedProject({ name: "Shares" })).project;
  made.projects.push(id);
  return id;
}
function testKind(name: string) {
  const kind = `test.${name}-${newId("k")}`;
  made.kinds.push(kind);
  return kind;
}

/** `count` due jobs of `kind` in `projectId`, `ageMs` old (older ones come first within a project). */
async function queue(kind: string, projectId: string | null, count: number, ageMs = 0) {
  const db = await getDb();
  const runAt = new Date(Date.now() - 60_000 - ageMs);
  const rows = Array.from({ length: count }, () => ({ id: newId("job"), projectId, kind, payload: {}, maxAttempts: 3, runAt }));
  for (let i = 0; i < rows.length; i += 1000) await db.insert(jobs).values(rows.slice(i, i + 1000));
  return rows.map((r) => r.id);
}

/** `count` jobs of `kind` in `projectId` running now (on this instance or another: the claim counts them all). */
async function running(kind: string, projectId: string | null, count: number) {
  const ids = await queue(kind, projectId, count);
  await (await getDb())
    .update(jobs)
    .set({ status: "running", attempts: 1, lockedUntil: new Date(Date.now() + 60_000) })
    .where(inArray(jobs.id, ids));
  return ids;
}
/** The jobs end: they no longer count as running. */
async function finish(ids: string[]) {
  await (await getDb()).update(jobs).set({ status: "done" }).where(inArray(jobs.id, ids));
}

const projectsOf = (claimed: { projectId: string | null }[]) => claimed.map((j) => j.projectId);

describe("claimJobs: projects take turns", () => {
  it("takes the oldest due job of each project in turn, however many older jobs one project queued", async () => {
    const kind = testKind("turns");
    const [a, b] = [await project(), await project()];
    await queue(kind, a, 500, 3_600_000);
    await queue(kind, b, 2);
    const claimed = await claimJobs(await getDb(), { limit: 4, kinds: [kind] });
    // Before: the 500 older jobs of A came first, and B's waited for all of them.
    expect(projectsOf(claimed).sort()).toEqual([a, a, b, b].sort());
  });

  it("gives a project at its share nothing while another's job is due, and the other's is taken", async () => {
    const kind = testKind("share");
    const [a, b] = [await project(), await project()];
    await queue(kind, a, 500, 3_600_000);
    await running(kind, a, 1);
    const [mine] = await queue(kind, b, 1);
    const claimed = await claimJobs(await getDb(), { limit: 1, kinds: [kind], shares: { share: 1, reserve: 1 } });
    expect(claimed.map((j) => j.id)).toEqual([mine]);
  });

  it("counts a project's jobs running on another instance, and only those of the claiming lane", async () => {
    const [kind, otherLane] = [testKind("instances"), testKind("other-lane")];
    const [a, b] = [await project(), await project()];
    await queue(kind, a, 3, 3_600_000);
    await queue(kind, b, 3);
    await running(otherLane, b, 5); // another lane's: not counted here
    const db = await getDb();
    // "Another instance" claims 2 with a lane of its own: A's older jobs first (B runs 5, but in another lane).
    expect(projectsOf(await claimJobs(db, { limit: 2, kinds: [kind], shares: { share: 2, reserve: 0 } })).sort()).toEqual([a, b].sort());
    // This instance's lane, with nothing of its own running, sees A and B running one each: they take turns again,
    // oldest first (A). Before, counted per process, A's two older jobs came first.
    expect(projectsOf(await claimJobs(db, { limit: 2, kinds: [kind], shares: { share: 2, reserve: 0 } })).sort()).toEqual([a, b].sort());
    // B's two end; A, at its share of 2 across both "instances", leaves the slot to B's job though its own is older,
    // and the slot kept free stays free.
    const bRunning = (
      await (
        await getDb()
      )
        .select()
        .from(jobs)
        .where(inArray(jobs.projectId, [b]))
    ).filter((j) => j.kind === kind && j.status === "running");
    await finish(bRunning.map((j) => j.id));
    await queue(kind, a, 1, 7_200_000);
    expect(projectsOf(await claimJobs(db, { limit: 2, kinds: [kind], shares: { share: 2, reserve: 1 } }))).toEqual([b]);
  });

  it("lets a project alone use the lane but for the slot kept free; past its share it never takes that slot", async () => {
    const kind = testKind("alone");
    const a = await project();
    await queue(kind, a, 50);
    const db = await getDb();
    const shares = { share: 1, reserve: 1 };
    const claimed = await claimJobs(db, { limit: 4, kinds: [kind], shares });
    expect(claimed).toHaveLength(3);
    expect(await claimJobs(db, { limit: 1, kinds: [kind], shares })).toHaveLength(0);
    // Below its share a project takes even the last slot.
    await db
      .update(jobs)
      .set({ status: "done" })
      .where(
        inArray(
          jobs.id,
          claimed.map((j) => j.id),
        ),
      );
    expect(await claimJobs(db, { limit: 1, kinds: [kind], shares })).toHaveLength(1);
  });

  it("counts instance-wide jobs (no project) as a group of their own", async () => {
    const kind = testKind("instance");
    const a = await project();
    await queue(kind, a, 20, 3_600_000);
    const aRunning = await running(kind, a, 2);
    const [wide] = await queue(kind, null, 1);
    const claimed = await claimJobs(await getDb(), { limit: 1, kinds: [kind], shares: { share: 2, reserve: 1 } });
    expect(claimed.map((j) => j.id)).toEqual([wide]);
    // And once A's end, instance-wide work at its share (the one just claimed runs) leaves the slot to a project's
    // job, though it is older.
    await finish(aRunning);
    await queue(kind, null, 1, 7_200_000);
    const after = await claimJobs(await getDb(), { limit: 1, kinds: [kind], shares: { share: 1, reserve: 1 } });
    expect(projectsOf(after)).toEqual([a]);
  });

  it("claims another lane's job past a backlog of due jobs of other kinds", async () => {
    const backlog = testKind("backlog");
    const other = testKind("other");
    const a = await project();
    await queue(backlog, a, 5000, 3_600_000);
    const [id] = await queue(other, a, 1);
    const db = await getDb();
    // The default lane excludes the backlog's kind, a dedicated lane names its own.
    expect((await claimJobs(db, { limit: 2, exceptKinds: [backlog], kinds: [other] })).map((j) => j.id)).toEqual([id]);
    const [id2] = await queue(other, null, 1);
    expect((await claimJobs(db, { limit: 3, kinds: [other] })).map((j) => j.id)).toEqual([id2]);
    expect(await claimJobs(db, { limit: 3, kinds: [backlog] })).toHaveLength(3);
  });

  it.runIf(onPostgres)("hands each due job to one of several concurrent claimers, with shares (PostgreSQL)", async () => {
    const kind = testKind("race");
    const ids: string[] = [];
    for (let p = 0; p < 5; p++) ids.push(...(await queue(kind, await project(), 40, p * 1000)));
    ids.push(...(await queue(kind, null, 40)));
    const db = await getDb();
    const seen: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        // Until every job is taken (a claim finds none while the others hold the last rows locked).
        for (let round = 0; seen.length < ids.length && round < 1000; round++) {
          const got = await db.transaction((tx) => claimJobs(tx, { limit: 8, kinds: [kind], shares: { share: 2, reserve: 1 } }));
          expect(got.length).toBeLessThanOrEqual(8);
          seen.push(...got.map((j) => j.id));
        }
      }),
    );
    expect(seen.length).toBe(ids.length);
    expect(new Set(seen)).toEqual(new Set(ids));
  });
});

describe("job runner: a project's share of a lane", () => {
  /** Approval callbacks of `projectId` to a new path answering `answer`; returns the path. */
  async function callbacks(projectId: string, count: number, answer: "hang" | 200) {
    const path = `/cb-${newId("p")}`;
    const url = receiver.endpoint(path, { secrets: [], answers: [answer] });
    const db = await getDb();
    await db.transaction(async (tx) => {
      for (let i = 0; i < count; i++) await queueCallback(tx, { projectId, url, eventId: newId("evt"), payload: { request_id: newId("req") } });
    });
    return path;
  }
  /** A runner whose webhook lane has eight slots, a share of 25 % (two slots) unless told, one kept free. */
  async function startRunner(projectSharePercent?: number) {
    runner = new JobRunner(await getDb(), {
      concurrency: 4,
      pollMs: 60_000,
      lanes: [{ kinds: [callbackJob.kind], concurrency: 8 }],
      projectSharePercent,
    });
    await runner.start();
  }
  const runningCallbacks = async (projectIds: string[]) =>
    (await (await getDb()).select().from(jobs).where(inArray(jobs.projectId, projectIds))).filter((j) => j.kind === callbackJob.kind && j.status === "running");

  it("starts project B's callback at once while project A's endpoints hang in every slot A may take", async () => {
    const [a, b] = [await project(), await project()];
    await startRunner();
    const hanging = await callbacks(a, 12, "hang");
    await receiver.waitFor(7, hanging);
    const answering = await callbacks(b, 1, 200);
    // Before: A's callbacks held all eight slots until their 10 s deadline, and B's waited behind the other four.
    await receiver.waitFor(1, answering, 5_000);
    expect(receiver.at(hanging)).toHaveLength(7);
    expect(await runningCallbacks([a])).toHaveLength(7);
  }, 30_000);

  it("never runs more than the lane's slots, each project within its share when many are due", async () => {
    const projects = [await project(), await project(), await project(), await project(), await project(), await project()];
    const paths: string[] = [];
    for (const p of projects) paths.push(await callbacks(p, 5, "hang"));
    await startRunner();
    await waitFor(async () => paths.reduce((n, p) => n + receiver.at(p).length, 0) >= 8, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(paths.reduce((n, p) => n + receiver.at(p).length, 0)).toBe(8);
    const running = await runningCallbacks(projects);
    expect(running).toHaveLength(8);
    // Each of the six takes a turn before any takes a second; none goes past its share of two.
    const perProject = projects.map((p) => running.filter((j) => j.projectId === p).length);
    expect(perProject.every((n) => n >= 1 && n <= 2)).toBe(true);
  }, 30_000);

  it("with a share of the whole lane, A's hanging endpoints hold every slot and B waits (the control)", async () => {
    const [a, b] = [await project(), await project()];
    await startRunner(100);
    const hanging = await callbacks(a, 12, "hang");
    await receiver.waitFor(8, hanging);
    const answering = await callbacks(b, 1, 200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.at(answering)).toHaveLength(0);
  }, 30_000);
});
