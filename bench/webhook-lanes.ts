/**
 * Mail lane isolation (issue 18 "Benchmarks", design D11): MAILS outbound mails at RATE a second, each through the
 * job runner (as shipped: JOBS_CONCURRENCY for mail, a JOBS_WEBHOOK_CONCURRENCY-slot webhook lane) to a relay sink,
 * while every sent mail's `message.sent` event fans out to 4 webhooks. Five runs in one process, in the order
 * none → healthy → hanging → healthy → none: the 4 endpoints answer 200 at once, or never (each delivery holds its
 * slot for the 10 s timeout), or the webhooks are switched off (mail alone: the control). The figure is the mail's
 * latency from the send's commit to the sink; target: the hanging run within ±20% of the healthy runs. PostgreSQL.
 *
 * Why the control: the healthy and hanging runs do not offer the same work. Healthy endpoints take 800 deliveries a
 * run, whose CPU and database work compete with the mail on the same cores; hanging ones fill the lane's slots and
 * then nothing happens. Mail being FASTER with hanging endpoints (the first measurement, 0.47×) says that cost, not
 * isolation. Whether hanging endpoints hold mail back is hanging vs none; what healthy deliveries cost the mail on a
 * shared machine is healthy vs none. Both are printed, beside the hanging vs healthy.
 * Run: npx tsx bench/webhook-lanes.ts   (MAILS=200 RATE=20 to change the load)
 * Measured 2026-12-02 10:53 on the shared 2-vCPU VM (load average 12-13), lane of 32 with grouped finishes: mean
 * (p50) none 222 (211) / 211 (165) ms, healthy 336 (285) / 381 (301), hanging 248 (177): hanging vs none 1.15×
 * mean, 0.94× p50 (inside ±20%: hanging endpoints do not hold mail back); hanging vs healthy 0.69× (outside the band
 * on the fast side); healthy vs none 1.66× (the CPU the 800 deliveries take on two cores).
 * Idle machine, 2026-12-03 01:15: mean (p50) none 8.8 (8.2) / 8.8 (8.1) ms, healthy 8.4 (7.8) / 9.1 (8.2), hanging
 * 8.8 (8.3): hanging vs healthy 1.01× mean, 1.04× p50; hanging vs none 1.00×; healthy vs none 0.99× (means at 00:23:
 * 1.01×, 1.04×, 1.04×). With CPU to spare, neither the hanging endpoints nor the healthy deliveries move the mail.
 */
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { migrateDb } from "@/lib/db/migrate";
import { env, resetEnvCache } from "@/lib/env";
import { JobRunner } from "@/lib/jobs/job-runner";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { sendEmail } from "@/lib/mail/outbound/send-email";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { seedProject } from "@/lib/testing/seed";
import { percentiles } from "./support/load";
import { freshDatabase, startProcess } from "./support/processes";
import { relaySink } from "./support/relay-sink";
import { machineSpeed } from "./support/machine-speed";

const MAILS = Number(process.env.MAILS ?? 200);
const RATE = Number(process.env.RATE ?? 20);
const HOOKS = 4;

async function main() {
  // Taken before any load: the yardstick beside this run's figures.
  const machine = machineSpeed();
  const relay = await relaySink();
  const database = await freshDatabase("brynth_bench_lanes");
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    SMTP_RELAY_URL: `smtp://127.0.0.1:${relay.port}`,
    EMAIL_DAILY_LIMIT: "10000000",
    EMAIL_MONTHLY_LIMIT: "10000000",
  });
  resetEnvCache();
  await migrateDb();
  const db = await getDb();
  const { actor } = await seedProject({ name: "Lane bench" });

  const hooks: { id: string; secret: string; i: number }[] = [];
  for (let i = 0; i < HOOKS; i++) {
    const { webhook } = await createWebhook(db, { actor, webhook: { url: "https://placeholder.example/", eventTypes: ["message.sent"] } });
    hooks.push({ id: webhook.id, secret: openWebhookSecret(webhook), i });
  }
  const endpoints = Object.fromEntries(
    hooks.flatMap((h) => [
      [`/ok${h.i}`, { secrets: [h.secret], answers: [200] }],
      [`/hang${h.i}`, { secrets: [h.secret], answers: ["hang"] }],
    ]),
  );
  const { child, match } = await startProcess(
    process.execPath,
    ["--import", "tsx", "bench/support/webhook-receiver-process.ts"],
    { ...process.env, ENDPOINTS: JSON.stringify(endpoints) },
    /ready (\d+)/,
  );
  let hangingRequests = 0;
  let healthyRequests = 0;
  child.stdout!.on("data", (d: Buffer) => {
    for (const m of d.toString().matchAll(/^got \/(ok|hang)\d /gm)) m[1] === "ok" ? healthyRequests++ : hangingRequests++;
  });
  const port = Number(match[1]);
  process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${port}`;
  resetEnvCache();

  const runner = new JobRunner(db, {
    concurrency: env().JOBS_CONCURRENCY,
    pollMs: env().JOBS_POLL_MS,
    lanes: [{ kinds: [webhookDeliveryJob.kind], concurrency: env().JOBS_WEBHOOK_CONCURRENCY }],
    onError: (e) => console.error(e),
  });
  await runner.start();

  async function run(mode: "ok" | "hang" | "none", tag: string) {
    // `none`: the webhooks are switched off, so the sends fan out to nothing: mail alone, the control.
    for (const h of hooks)
      await db
        .update(mailWebhooks)
        .set({ url: `http://127.0.0.1:${port}/${mode === "none" ? "ok" : mode}${h.i}`, enabled: mode !== "none" })
        .where(eq(mailWebhooks.id, h.id));
    // The previous run's queued deliveries are dropped: each run starts with an empty webhook backlog.
    await db.delete(jobs).where(and(eq(jobs.kind, webhookDeliveryJob.kind), eq(jobs.status, "pending")));
    const latencies: Promise<number>[] = [];
    const start = performance.now();
    for (let i = 0; i < MAILS; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const subject = `${tag} ${i}`;
      const arrived = relay.arrival(subject);
      const t0 = performance.now();
      await db.transaction((tx) =>
        sendEmail(tx, { actor, to: ["ann@relay.example"], subject, text: "Lane isolation bench.", attachments: [], reply_to_inbox: false }),
      );
      latencies.push(
        Promise.race([arrived, new Promise<number>((r) => setTimeout(() => r(Number.NaN), 120_000))]).then((at) => (Number.isNaN(at) ? Number.NaN : at - t0)),
      );
    }
    const all = await Promise.all(latencies);
    const got = all.filter((v) => !Number.isNaN(v));
    const mean = got.reduce((a, b) => a + b, 0) / Math.max(1, got.length);
    return { mails: MAILS, arrived: got.length, mean_ms: Number(mean.toFixed(2)), ...percentiles(got) };
  }

  // Warm-up (connections, the relay transport, JIT).
  await run("ok", "warmup");
  const noneA = await run("none", "none-a");
  const healthyA = await run("ok", "healthy-a");
  const hanging = await run("hang", "hanging");
  const hangingSeen = hangingRequests;
  const healthyB = await run("ok", "healthy-b");
  const noneB = await run("none", "none-b");
  const healthyMean = (healthyA.mean_ms + healthyB.mean_ms) / 2;
  const healthyP50 = ((healthyA.p50_ms ?? 0) + (healthyB.p50_ms ?? 0)) / 2;
  const noneMean = (noneA.mean_ms + noneB.mean_ms) / 2;
  const noneP50 = ((noneA.p50_ms ?? 0) + (noneB.p50_ms ?? 0)) / 2;
  console.log(
    JSON.stringify(
      {
        machine,
        database: "postgres",
        mails_per_run: MAILS,
        mails_per_second: RATE,
        webhooks: HOOKS,
        runner: { mail_slots: env().JOBS_CONCURRENCY, webhook_lane_slots: env().JOBS_WEBHOOK_CONCURRENCY },
        no_webhooks_before: noneA,
        healthy_before: healthyA,
        hanging,
        healthy_after: healthyB,
        no_webhooks_after: noneB,
        requests_to_hanging_endpoints_during_hanging_run: hangingSeen,
        requests_to_healthy_endpoints: healthyRequests,
        hanging_vs_healthy: {
          mean: Number((hanging.mean_ms / healthyMean).toFixed(2)),
          p50: Number(((hanging.p50_ms ?? 0) / healthyP50).toFixed(2)),
        },
        hanging_vs_no_webhooks: { mean: Number((hanging.mean_ms / noneMean).toFixed(2)), p50: Number(((hanging.p50_ms ?? 0) / noneP50).toFixed(2)) },
        healthy_vs_no_webhooks: { mean: Number((healthyMean / noneMean).toFixed(2)), p50: Number((healthyP50 / noneP50).toFixed(2)) },
      },
      null,
      2,
    ),
  );
  child.kill("SIGTERM");
  await runner.stop().catch(() => {});
  closeRelayTransports();
  await relay.close().catch(() => {});
  await database.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
