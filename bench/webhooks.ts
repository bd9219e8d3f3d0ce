/**
 * Webhook deliveries (issue 18 "Benchmarks"): real mail events fanned out to 10 webhooks on a local keep-alive
 * receiver (its own process, verifying every signature with the `standardwebhooks` package), delivered by the job
 * runner's webhook lane through safeFetch. Three figures, on PostgreSQL:
 *   - burst, once per VARIANT in the same run: EVENTS events (×10 deliveries) committed first, then a runner started:
 *     deliveries/s until all arrive, and this process's CPU per delivery. A variant is `grouped|single:<slots>` (finishes
 *     committed together or one by one, and the lane's slots); the last variant (default `grouped:32`) is the
 *     shipped one and also runs the steady phase;
 *   - steady: RATE events/s for SECONDS while the runner runs: commit → receiver latency of every delivery;
 *   - baseline: a plain node:http POST loop (LANE workers, keep-alive, the same body size and signature headers) to
 *     the same receiver, before and after the bursts; `ratio` = shipped burst deliveries/s ÷ baseline POSTs/s.
 * Targets: ≥ 300 deliveries/s, p99 commit→receiver ≤ 250 ms, ratio ≥ 0.5.
 * Run: npx tsx bench/webhooks.ts   (EVENTS=300 RATE=30 SECONDS=10 VARIANTS=… to change the load)
 * Events are about real messages (MESSAGES received through the inbound pipeline, named in turn), so each delivery
 * carries a message's view (about 1.9 KB), as a webhook's does; the baseline POSTs a real payload of that size.
 * Measured 2026-12-02 17:50 on the shared 2-vCPU VM during a CI run (load 5.5–6.9), EVENTS=300, grouped:32,
 * alternated three times with the code before payloads were built together per claim: 299 / 255 / 186
 * deliveries/s at 1.38 / 1.50 / 1.80 ms CPU each, against 99 / 175 / 184 at 3.22 / 2.59 / 2.44 ms; the plain loop
 * made 1,365–2,757 POSTs/s, ratio 0.07–0.17. The machine was saturated by other work.
 * Idle machine, 2026-12-03, EVENTS=300 (3,000 deliveries): grouped:32 1,503 deliveries/s at 00:22 and 1,072 at
 * 01:15 (0.42-0.49 ms CPU each), single:8 560-568/s; steady 30 events/s, commit → receiver p50 6.9-7.6 ms, p99
 * 11.7-12.0 ms; every signature verified, no event twice per endpoint. The plain loop made 12,079-12,107 POSTs/s
 * (ratio 0.09-0.12): it writes nothing down, while each delivery is a claimed job, an attempt row and a commit.
 * 2026-12-04 19:55: two of four runs had reported 1-2 events delivered twice to an endpoint, with runners stopped
 * at once between phases; stopped with the service's grace (STOP_GRACE_MS), three runs reported none, at 694-817
 * deliveries/s (grouped:32).
 * 2026-12-05, idle after a CI run, yardstick sha256_64mb_ms 42: grouped:32 476 deliveries/s (1.03 ms CPU each),
 * single:8 193/s; steady 30 events/s, commit → receiver p50 13.3 ms, p99 38.3 ms; the plain loop 3,700-4,818 POSTs/s
 * (ratio 0.11); every signature verified, no event twice per endpoint.
 */
import { Agent, request } from "node:http";
import type { ChildProcess } from "node:child_process";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { migrateDb } from "@/lib/db/migrate";
import { resetEnvCache } from "@/lib/env";
import { JobRunner } from "@/lib/jobs/job-runner";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { buildEventPayload, WEBHOOK_PAYLOAD_MAX_BYTES } from "@/lib/mail/events/event-payload";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { rawMail } from "@/lib/testing/mail-fixture";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { signWebhook } from "@/lib/mail/webhooks/sign-webhook";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { seedProject } from "@/lib/testing/seed";
import { percentiles } from "./support/load";
import { freshDatabase, startProcess } from "./support/processes";
import { machineSpeed } from "./support/machine-speed";

const EVENTS = Number(process.env.EVENTS ?? 300);
const RATE = Number(process.env.RATE ?? 30);
const SECONDS = Number(process.env.SECONDS ?? 10);
const ENDPOINTS = 10;
/** Stored messages the events are about, in turn. */
const MESSAGES = Number(process.env.MESSAGES ?? 100);
const MESSAGE_TEXT = "Hello,\n\nThe quarter's numbers are in: revenue is up, costs are flat, and the forecast holds.\n\nAda";
/**
 * As the service stops (JOBS_STOP_GRACE_SECONDS): a runner stopped between phases lets its requests finish, where
 * aborting one the receiver had got but not answered yet sent it again from the next phase's runner.
 */
const STOP_GRACE_MS = 10_000;
/** The webhook lane's slots as shipped (JOBS_WEBHOOK_CONCURRENCY's default): the baseline loop's workers too. */
const LANE = 32;
/**
 * Burst variants, `grouped|single:<lane slots>`, run in this order in the same run; the last one is the shipped
 * setting and also runs the steady phase.
 */
const VARIANTS = process.env.VARIANTS ?? `single:8,grouped:${LANE}`;
interface Variant {
  name: string;
  group: boolean;
  lane: number;
}
const now = () => performance.timeOrigin + performance.now();

/** The receiver process, and what it has seen of the webhooks' deliveries (the baseline's POSTs are not counted). */
async function startReceiver(endpoints: Record<string, { secrets: string[] }>) {
  const arrivals = new Map<string, number[]>();
  let count = 0;
  let unverified = 0;
  let waiter: { n: number; resolve: () => void } | null = null;
  const { child, match } = await startProcess(
    process.execPath,
    ["--import", "tsx", "bench/support/webhook-receiver-process.ts"],
    { ...process.env, ENDPOINTS: JSON.stringify(endpoints) },
    /ready (\d+)/,
  );
  let buffered = "";
  child.stdout!.on("data", (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const m = /^got (\S+) (\S+) (\S+) ([01])$/.exec(line);
      if (!m) continue;
      if (m[1] === "/baseline") continue;
      count++;
      if (m[4] === "0") unverified++;
      const list = arrivals.get(m[2]) ?? [];
      list.push(Number(m[3]));
      arrivals.set(m[2], list);
      if (waiter && count >= waiter.n) waiter.resolve();
    }
  });
  return {
    child: child as ChildProcess,
    port: Number(match[1]),
    arrivals,
    get count() {
      return count;
    },
    get unverified() {
      return unverified;
    },
    reach: (n: number, ms: number) =>
      new Promise<boolean>((resolve) => {
        if (count >= n) return resolve(true);
        const timer = setTimeout(() => resolve(false), ms);
        waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(true);
          },
        };
      }),
  };
}

/** `n` POSTs of `body` from `workers` keep-alive workers, signed as deliveries are: POSTs/s. */
async function plainPostLoop(port: number, path: string, secret: string, body: string, n: number, workers: number) {
  const agent = new Agent({ keepAlive: true });
  let sent = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (sent < n) {
        const i = sent++;
        const headers = {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          ...signWebhook({ id: `base_${i}`, body, secrets: [secret] }),
        };
        await new Promise<void>((resolve, reject) => {
          const req = request({ host: "127.0.0.1", port, path, method: "POST", agent, headers }, (res) => {
            res.resume();
            res.on("end", resolve);
          });
          req.on("error", reject);
          req.end(body);
        });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { posts: n, seconds: Number(seconds.toFixed(2)), per_second: Math.round(n / seconds) };
}

async function main() {
  // Taken before any load: the yardstick beside this run's figures.
  const machine = machineSpeed();
  const database = await freshDatabase("brynth_bench_webhooks");
  process.env.DATABASE_URL = database.url;
  resetEnvCache();
  await migrateDb();
  const db = await getDb();
  const { actor, project } = await seedProject({ name: "Webhook bench" });
  const mailbox = await defaultMailbox(db, project.id);
  // Events about real messages, as a webhook's are: MESSAGES received through the inbound pipeline before any
  // webhook exists (so they queue nothing), each event naming one of them in turn; a delivery carries its view.
  const messages: { id: string; threadId: string }[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const raw = await rawMail({
      from: "Ada <ada@example.org>",
      to: mailbox.address,
      subject: `Numbers ${i}`,
      text: MESSAGE_TEXT,
      html: `<p>${MESSAGE_TEXT}</p>`,
    });
    const [stored] = await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [mailbox], remote: "local" });
    const [row] = await db.select({ id: mailMessages.id, threadId: mailMessages.threadId }).from(mailMessages).where(eq(mailMessages.id, stored.messageId));
    messages.push(row);
  }

  // The webhooks first (their secrets are made with them), then the receiver that knows the secrets, then the URLs.
  const hooks = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const { webhook } = await createWebhook(db, { actor, webhook: { url: "https://placeholder.example/", eventTypes: ["message.received"] } });
    hooks.push({ id: webhook.id, path: `/e${i}`, secret: openWebhookSecret(webhook) });
  }
  const baselineSecret = hooks[0].secret;
  const receiver = await startReceiver(
    Object.fromEntries([...hooks.map((h) => [h.path, { secrets: [h.secret] }]), ["/baseline", { secrets: [baselineSecret] }]]),
  );
  for (const h of hooks)
    await db
      .update(mailWebhooks)
      .set({ url: `http://127.0.0.1:${receiver.port}${h.path}` })
      .where(eq(mailWebhooks.id, h.id));
  process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${receiver.port}`;
  resetEnvCache();

  const commits = new Map<string, number>();
  const emit = async (k: number) => {
    const message = messages[((k % MESSAGES) + MESSAGES) % MESSAGES];
    const id = await db.transaction((tx) =>
      emitMailEvent(tx, {
        projectId: project.id,
        mailboxId: mailbox.id,
        type: "message.received",
        messageId: message.id,
        threadId: message.threadId,
        summary: { from: "ada@example.org", to: [mailbox.address], subject: `Event ${k}`, preview: "A short preview of the message.", labels: ["received"] },
      }),
    );
    commits.set(id, now());
    return id;
  };

  const runner = new JobRunner(db, {
    concurrency: 4,
    pollMs: 200,
    lanes: [{ kinds: [webhookDeliveryJob.kind], concurrency: LANE }],
    stopGraceMs: STOP_GRACE_MS,
    onError: (e) => console.error(e),
  });

  // Warm-up: connections, statement caches, JIT.
  await runner.start();
  const warmIds: string[] = [];
  for (let k = 0; k < 20; k++) warmIds.push(await emit(-k));
  await receiver.reach(20 * ENDPOINTS, 60_000);
  await runner.stop();
  // The body a delivery of these events carries (a real event's payload), for the baseline's size.
  const [sampleEvent] = await db.select().from(mailEvents).where(eq(mailEvents.id, warmIds[0]));
  const sampleBody = JSON.stringify(await buildEventPayload(db, sampleEvent, { maxBytes: WEBHOOK_PAYLOAD_MAX_BYTES }));

  const baseA = await plainPostLoop(receiver.port, "/baseline", baselineSecret, sampleBody, EVENTS * ENDPOINTS, LANE);

  // Burst, once per variant (same run, same receiver): every event committed, then a runner drains the backlog.
  const burst = async (v: Variant) => {
    for (let k = 0; k < EVENTS; k++) await emit(k);
    const target = receiver.count + EVENTS * ENDPOINTS;
    const r = new JobRunner(db, {
      concurrency: 4,
      pollMs: 200,
      lanes: [{ kinds: [webhookDeliveryJob.kind], concurrency: v.lane }],
      groupFinishes: v.group,
      stopGraceMs: STOP_GRACE_MS,
      onError: (e) => console.error(e),
    });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await r.start();
    const allArrived = await receiver.reach(target, 300_000);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuMsPerDelivery = Number(((cpu.user + cpu.system) / 1000 / (EVENTS * ENDPOINTS)).toFixed(3));
    return {
      runner: r,
      result: {
        ...v,
        all_arrived: allArrived,
        seconds: Number(seconds.toFixed(2)),
        deliveries_per_second: Math.round((EVENTS * ENDPOINTS) / seconds),
        bench_process_cpu_ms_per_delivery: cpuMsPerDelivery,
      },
    };
  };
  const variants: Variant[] = VARIANTS.split(",").map((name) => {
    const [group, lane] = name.split(":");
    return { name, group: group === "grouped", lane: Number(lane) };
  });
  const bursts = [];
  let burstRunner: JobRunner | null = null;
  for (const [i, v] of variants.entries()) {
    const { runner: r, result } = await burst(v);
    bursts.push(result);
    // The last variant (the shipped setting) keeps running for the steady phase.
    if (i < variants.length - 1) await r.stop();
    else burstRunner = r;
  }
  const shipped = bursts[bursts.length - 1];
  const target = receiver.count;
  const baseB = await plainPostLoop(receiver.port, "/baseline", baselineSecret, sampleBody, EVENTS * ENDPOINTS, LANE);

  // Steady: RATE events a second while the runner runs; latency from each event's commit to each arrival.
  const steadyIds: string[] = [];
  const steadyStart = performance.now();
  for (let k = 0; k < RATE * SECONDS; k++) {
    const due = steadyStart + (k * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    steadyIds.push(await emit(100_000 + k));
  }
  const steadyDone = await receiver.reach(target + RATE * SECONDS * ENDPOINTS, 120_000);
  const latencies: number[] = [];
  for (const id of steadyIds) for (const at of receiver.arrivals.get(id) ?? []) latencies.push(at - (commits.get(id) ?? at));
  await burstRunner?.stop();

  const perSecond = shipped.deliveries_per_second;
  const baseline = Math.round((baseA.per_second + baseB.per_second) / 2);
  const duplicates = [...receiver.arrivals.values()].filter((a) => a.length > ENDPOINTS).length;
  console.log(
    JSON.stringify(
      {
        machine,
        database: "postgres",
        endpoints: ENDPOINTS,
        body_bytes: Buffer.byteLength(sampleBody),
        burst: { events: EVENTS, deliveries: EVENTS * ENDPOINTS, variants: bursts },
        steady: {
          events_per_second: RATE,
          seconds: SECONDS,
          deliveries: latencies.length,
          all_arrived: steadyDone,
          commit_to_receiver: { ...percentiles(latencies), max_ms: Number(Math.max(...latencies).toFixed(2)) },
        },
        baseline_plain_post_loop: { before: baseA, after: baseB, per_second: baseline },
        ratio: Number((perSecond / baseline).toFixed(2)),
        unverified: receiver.unverified,
        events_delivered_more_than_once_per_endpoint: duplicates,
      },
      null,
      2,
    ),
  );
  receiver.child.kill("SIGTERM");
  await database.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
