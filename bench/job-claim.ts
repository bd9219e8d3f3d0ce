/**
 * The job claim under a backlog: the latency of one claim (lib/jobs/statements.ts claimDueJobs, through claimJobs)
 * against the statement it replaced (BASELINE below, with its run_at index), both in the same run, alternated call by
 * call, each claim rolled back so every call sees the same rows. Scenarios, at each BACKLOGS size N:
 *   - other_kind: N due webhook deliveries of one project; the default lane (which excludes them) claims a due
 *     mail.deliver of another project. The baseline reads past all N in run_at order;
 *   - saturated_project: N older due mail.deliver jobs of project A, which runs its share (1 of 4 slots) already;
 *     the lane claims one slot. The new claim takes project B's job; the baseline takes A's (it knows no shares),
 *     so its figure is what skipping costs nothing against, not the same result;
 *   - idle_groups: N projects with one job each due in an hour (parked, as enqueueJobs writes it), and one due job:
 *     what the promotion's probe and enumerating the (kind, project) groups cost the new claim (the baseline never
 *     reads rows not yet due);
 *   - idle_groups_unparked: the same rows left in the claim's index, as before parking (commit b9ee462): each
 *     project with a job to come cost a probe of every claim.
 * Output: per scenario and N, each statement's p50 and p99 ms and new/old; `took` says whose job each took.
 * Run: npx tsx bench/job-claim.ts   (BACKLOGS=0,10000,100000 CALLS=200; PGLITE=1 runs on PGlite)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableColumns, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { migrateDb } from "@/lib/db/migrate";
import { jobs, type JobRow } from "@/lib/db/schema/jobs";
import { columnList, statement } from "@/lib/db/statement";
import { resetEnvCache } from "@/lib/env";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { seedProject } from "@/lib/testing/seed";
import { percentiles } from "./support/load";
import { freshDatabase } from "./support/processes";

const BACKLOGS = (process.env.BACKLOGS ?? "0,10000,100000").split(",").map(Number);
const CALLS = Number(process.env.CALLS ?? 200);
const PGLITE = process.env.PGLITE === "1";
const WEBHOOK_KINDS = ["mail.webhook", "approvals.callback"];

/** The claim before per-project shares (commit 9b0c443), and the index it walked. */
const BASELINE_INDEX = `create index if not exists jobs_due_idx on jobs (run_at) where status = 'pending'`;
const baselineClaim = statement<JobRow, [limit: number, kinds: string[] | null, exceptKinds: string[] | null, leaseSeconds: number]>(`
  with due as (
    select id from jobs
    where status = 'pending' and run_at <= now()
      and ($2::text[] is null or kind = any($2::text[]))
      and ($3::text[] is null or kind <> all($3::text[]))
    order by run_at
    limit $1
    for update skip locked
  )
  update jobs set status = 'running', attempts = jobs.attempts + 1, locked_until = now() + make_interval(secs => $4::float8), updated_at = now()
  from due where jobs.id = due.id and jobs.status = 'pending'
  returning ${columnList(getTableColumns(jobs))}`);

class Rollback extends Error {}
type Db = Awaited<ReturnType<typeof getDb>>;

/** One claim in a transaction that is rolled back: its time in ms and the projects of the jobs it took. */
async function timed(db: Db, claim: (tx: Db) => Promise<JobRow[]>) {
  let took: (string | null)[] = [];
  const t0 = performance.now();
  try {
    await db.transaction(async (tx) => {
      took = (await claim(tx as unknown as Db)).map((j) => j.projectId);
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return { ms: performance.now() - t0, took };
}

async function compare(
  db: Db,
  name: string,
  backlog: number,
  claims: { old: (tx: Db) => Promise<JobRow[]>; new: (tx: Db) => Promise<JobRow[]> },
  whose: Record<string, string>,
) {
  const times = { old: [] as number[], new: [] as number[] };
  const took = { old: [] as string[], new: [] as string[] };
  for (let i = 0; i < CALLS; i++) {
    for (const side of i % 2 ? (["new", "old"] as const) : (["old", "new"] as const)) {
      const r = await timed(db, claims[side]);
      if (i >= 10) times[side].push(r.ms); // the first calls plan and warm the cache
      took[side] = r.took.map((p) => whose[p ?? ""] ?? "other");
    }
  }
  const old = percentiles(times.old);
  const now = percentiles(times.new);
  return {
    scenario: name,
    backlog,
    old: { ...old, took: took.old },
    new: { ...now, took: took.new },
    new_per_old_p50: old.p50_ms && now.p50_ms !== null ? Number((now.p50_ms / old.p50_ms).toFixed(2)) : null,
  };
}

/** `count` jobs at `runAt`, parked if it is still to come (as enqueueJobs writes them). */
async function insertDue(db: Db, kind: string, projectId: string | null, count: number, runAt: string) {
  if (count === 0) return;
  await db.execute(sql`
    insert into jobs (id, project_id, kind, payload, run_at, parked, max_attempts)
    select 'job_bench_' || md5(random()::text || g), ${projectId}, ${kind}, '{}', ${sql.raw(runAt)}, ${sql.raw(runAt)} > now(), 3
    from generate_series(1, ${count}) g`);
}

async function main() {
  const database = PGLITE ? null : await freshDatabase("brynth_bench_claim");
  const dataDir = PGLITE ? mkdtempSync(join(tmpdir(), "brynth-claim-")) : null;
  if (database) process.env.DATABASE_URL = database.url;
  else {
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dataDir!;
  }
  resetEnvCache();
  await migrateDb();
  const db = await getDb();
  await db.execute(sql.raw(BASELINE_INDEX));
  const a = (await seedProject({ name: "Backlog" })).project.id;
  const b = (await seedProject({ name: "Waiting" })).project.id;
  const other = (await seedProject({ name: "Running" })).project.id;
  const whose = { [a]: "A (the backlog)", [b]: "B" };
  const results = [];
  const clear = () => db.execute(sql`delete from jobs`);
  for (const n of BACKLOGS) {
    await clear();
    await insertDue(db, "mail.webhook", a, n, "now() - interval '1 hour'");
    await insertDue(db, "mail.deliver", b, 1, "now() - interval '1 minute'");
    await db.execute(sql`vacuum analyze jobs`);
    results.push(
      await compare(
        db,
        "other_kind",
        n,
        {
          old: (tx) => baselineClaim(tx, 4, null, WEBHOOK_KINDS, 300),
          new: (tx) => claimJobs(tx, { limit: 4, exceptKinds: WEBHOOK_KINDS, shares: { share: 1, reserve: 1 } }),
        },
        whose,
      ),
    );

    await clear();
    await insertDue(db, "mail.deliver", a, n, "now() - interval '1 hour'");
    await insertDue(db, "mail.deliver", b, 1, "now() - interval '1 minute'");
    await db.execute(sql`vacuum analyze jobs`);
    // The lane has 4 slots, A runs 1 (its share) and another project 2: one is free.
    await insertDue(db, "mail.deliver", a, 1, "now() - interval '2 hours'");
    await insertDue(db, "mail.deliver", other, 2, "now() - interval '2 hours'");
    await db.execute(sql`update jobs set status = 'running', locked_until = now() + interval '1 hour' where run_at < now() - interval '90 minutes'`);
    results.push(
      await compare(
        db,
        "saturated_project",
        n,
        {
          old: (tx) => baselineClaim(tx, 1, null, WEBHOOK_KINDS, 300),
          new: (tx) => claimJobs(tx, { limit: 1, exceptKinds: WEBHOOK_KINDS, shares: { share: 1, reserve: 1 } }),
        },
        whose,
      ),
    );
  }
  // Idle groups need a project each (the foreign key): fewer sizes, made once and grown.
  let projects = 0;
  await clear();
  await insertDue(db, "mail.deliver", b, 1, "now() - interval '1 minute'");
  for (const n of BACKLOGS.map((x) => Math.min(x, 1000))) {
    for (; projects < n; projects++) {
      const p = (await seedProject({ name: `Idle ${projects}` })).project.id;
      await insertDue(db, "mail.send_draft", p, 1, "now() + interval '1 hour'");
    }
    for (const parked of [true, false]) {
      await db.execute(sql`update jobs set parked = ${parked} where run_at > now()`);
      await db.execute(sql`vacuum analyze jobs`);
      results.push(
        await compare(
          db,
          parked ? "idle_groups" : "idle_groups_unparked",
          n,
          {
            old: (tx) => baselineClaim(tx, 4, null, WEBHOOK_KINDS, 300),
            new: (tx) => claimJobs(tx, { limit: 4, exceptKinds: WEBHOOK_KINDS, shares: { share: 1, reserve: 1 } }),
          },
          whose,
        ),
      );
    }
  }
  console.log(JSON.stringify({ bench: "job claim under a backlog", database: PGLITE ? "pglite" : "postgres", calls: CALLS, results }, null, 2));
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
