/**
 * A dead endpoint beside a healthy one (lib/mail/webhooks/webhook-breaker.ts): one project, two webhooks on every
 * `message.received` event, one endpoint answering 200 at once, the other never (each request holds its slot until
 * the 10 s deadline). EVENTS events at RATE a second, through the runner as shipped (a JOBS_WEBHOOK_CONCURRENCY-slot
 * lane, JOBS_PROJECT_SHARE_PERCENT). Reports the healthy endpoint's latency from each event's commit to its arrival
 * (p50, p99, max), how many reached it within the wait, and how many requests the dead endpoint was sent.
 * PostgreSQL, receiver in its own process.
 * The breaker has no switch: the A/B is this file run from two checkouts in turn, one before it (the base):
 *   git worktree add --detach /tmp/base <rev> && ln -s "$PWD/node_modules" /tmp/base/ && cp bench/webhook-breaker.ts /tmp/base/bench/
 *   then alternately: npx tsx bench/webhook-breaker.ts   and   (cd /tmp/base && npx tsx bench/webhook-breaker.ts)
 * Run: npx tsx bench/webhook-breaker.ts   (EVENTS=600 RATE=20 WAIT_S=60)
 * Measured 2026-12-04 16:35, base d17216b and head alternated twice, same figures both times: base, 248 of 600 at the
 * healthy endpoint within 60 s of the last event, p50 33.9 s, p99 69.4 s, 279 requests to the dead one (its hanging
 * requests held nearly all 31 slots the project may take); head, 600 of 600, p50 12-13 ms, p99 8.5 s (the first 10 s,
 * before five requests had timed out), 37 requests to the dead one.
 * Measured 2026-12-04 20:10 with endpoint slots (lib/jobs/endpoint-slots.ts, 8 per endpoint), base f4695df
 * and head alternated twice: base p50 12.2 / 13.5 ms, p99 8,488 ms both times, 37 requests to the dead one; head p50
 * 10.1 / 10.5 ms, p99 42 / 64 ms, max 75 / 159 ms, 14 / 10 requests to the dead one; 600 of 600 arrived in all four.
 */
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { migrateDb } from "@/lib/db/migrate";
import { env, resetEnvCache } from "@/lib/env";
import { JobRunner } from "@/lib/jobs/job-runner";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { jobLanes } from "@/lib/services/job-runner";
import { emitBareMailEvent } from "@/lib/testing/mail-events";
import { seedProject } from "@/lib/testing/seed";
import { percentiles } from "./support/load";
import { freshDatabase, startProcess } from "./support/processes";

const EVENTS = Number(process.env.EVENTS ?? 600);
const RATE = Number(process.env.RATE ?? 20);
const WAIT_S = Number(process.env.WAIT_S ?? 60);

async function main() {
  const database = await freshDatabase("brynth_bench_breaker");
  process.env.DATABASE_URL = database.url;
  resetEnvCache();
  await migrateDb();
  const db = await getDb();
  const { actor, project } = await seedProject({ name: "Breaker bench" });
  const mailbox = await defaultMailbox(db, project.id);
  const made = async (path: string) => {
    const { webhook } = await createWebhook(db, { actor, webhook: { url: `https://placeholder.example${path}`, eventTypes: ["message.received"] } });
    return { webhook, secret: openWebhookSecret(webhook) };
  };
  const [ok, dead] = [await made("/ok"), await made("/dead")];
  const endpoints = { "/ok": { secrets: [ok.secret], answers: [200] }, "/dead": { secrets: [dead.secret], answers: ["hang"] } };
  const { child, match } = await startProcess(
    process.execPath,
    ["--import", "tsx", "bench/support/webhook-receiver-process.ts"],
    { ...process.env, ENDPOINTS: JSON.stringify(endpoints) },
    /ready (\d+)/,
  );
  const port = Number(match[1]);
  const arrivals = new Map<string, number>();
  let deadRequests = 0;
  child.stdout!.on("data", (d: Buffer) => {
    for (const m of d.toString().matchAll(/^got (\/\w+) (\S+) ([\d.]+)/gm)) {
      if (m[1] === "/ok") arrivals.set(m[2], Number(m[3]));
      else deadRequests++;
    }
  });
  process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${port}`;
  resetEnvCache();
  await db.execute(sql`update mail_webhooks set url = 'http://127.0.0.1:' || ${String(port)} || substring(url from '/[a-z]+$')`);

  const runner = new JobRunner(db, { concurrency: env().JOBS_CONCURRENCY, pollMs: env().JOBS_POLL_MS, lanes: jobLanes(), onError: () => {} });
  await runner.start();
  const committed = new Map<string, number>();
  const start = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = await emitBareMailEvent({ projectId: project.id, mailboxId: mailbox.id });
    committed.set(id, performance.timeOrigin + performance.now());
  }
  const sentFor = (performance.now() - start) / 1000;
  const deadline = performance.now() + WAIT_S * 1000;
  while (arrivals.size < EVENTS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const latencies = [...committed].flatMap(([id, at]) => (arrivals.has(id) ? [arrivals.get(id)! - at] : []));
  const p = percentiles(latencies);
  console.log(
    JSON.stringify(
      {
        bench: "healthy endpoint beside a dead one, one project",
        events: EVENTS,
        events_per_second: RATE,
        sent_over_s: Number(sentFor.toFixed(1)),
        webhook_lane_slots: env().JOBS_WEBHOOK_CONCURRENCY,
        healthy: { arrived: arrivals.size, within_s: WAIT_S, ...p, max_ms: Number(Math.max(...latencies).toFixed(1)) },
        requests_to_dead_endpoint: deadRequests,
      },
      null,
      2,
    ),
  );
  child.kill("SIGTERM");
  await runner.stop().catch(() => {});
  await database.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
