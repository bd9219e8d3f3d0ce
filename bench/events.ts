/**
 * Event inbox on PostgreSQL, against baselines measured in the same run:
 * - webhook intake: HMAC-signed deliveries/s and p99 at 16 connections, Brynth's /hooks/<token> vs plain node:http +
 *   HMAC check + the same insert;
 * - claim + ack through the REST API with 16 consumers, independent and then coordinated two ways (jobs/s, lost
 *   races, double claims) vs the same two commits in raw SQL; then again with DONE_ROWS finished events in the table;
 * - inbox_wait wake latency: from a webhook's 200 to the waiting GET /events/wait returning it.
 * Brynth runs as its fast path (what server.ts serves for these paths) in its own process. Each phase also reports
 * the CPU per request (or per job) of the API process, its Postgres backends and this load generator (from /proc),
 * which stays comparable when the machine is busy, and a GET /whoami phase gives the API's own per-request cost as
 * a reference.
 * Run: npx tsx bench/events.ts   (SECONDS=10 DONE_ROWS=1000000 WAKES=300 to change the defaults)
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { closedLoop, percentiles } from "./support/load";
import { serverCpuPerCall } from "./support/cpu-time";
import { freshDatabase, startProcess } from "./support/processes";
import { claimAckJobs, pooledClaimAck } from "./support/pooled-claim-ack";
import { signedDelivery } from "./support/signed-delivery";
import { http } from "./support/http";

const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = 16;
const DONE_ROWS = Number(process.env.DONE_ROWS ?? 1_000_000);
const WAKES = Number(process.env.WAKES ?? 300);
const SECRET = `bench-${randomBytes(8).toString("hex")}`;
async function intake(url: string) {
  let n = 0;
  const send = async () => {
    const d = signedDelivery(n++, SECRET);
    const res = await http("POST", url, d.body, { "content-type": "application/json", "x-signature": d.signature });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
  };
  for (let i = 0; i < 300; i++) await send();
  return closedLoop(CONNECTIONS, SECONDS, send);
}

/** A consumer's share of the events: a stable hash of the id, so every page agrees on who takes what. */
const stripeOf = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % CONNECTIONS;

/**
 * `random`: each consumer tries 10 of the 100 oldest pending events in its own order, as independent agents would,
 * and loses races to the others. `striped`: consumer w takes only the events whose id hashes to w, as a
 * coordinated pool would — what claim + ack cost without contention, though every consumer still reads every
 * page. `pooled` (support/pooled-claim-ack.ts, shared with ab-checkouts.ts): the consumers share one queue, and
 * whichever finds it empty reads the next page for all — a page of 100 per 100 jobs instead of one per consumer,
 * so the phase measures claim + ack rather than listing.
 */
async function claimAck(base: string, key: string, pick: "random" | "striped" | "pooled" = "random") {
  if (pick === "pooled") return pooledClaimAck({ http, base, key, source: "bench", consumers: CONNECTIONS, seconds: SECONDS });
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const { job, tally, summary } = claimAckJobs(http, base, auth);
  const end = performance.now() + SECONDS * 1000;
  const page = async (cursor: string | null) => {
    const from = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const body = JSON.parse((await http("GET", `${base}/api/v1/events?source=bench&limit=100${from}`, undefined, auth)).body);
    tally.lists++;
    return { ids: body.events.map((e: { id: string }) => e.id) as string[], next: body.next_cursor as string | null };
  };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, w) => {
      let queue: string[] = [];
      let cursor: string | null = null; // striped: the page after the one whose share this consumer has taken
      while (performance.now() < end) {
        if (queue.length === 0) {
          const { ids, next } = await page(cursor);
          if (ids.length === 0 && !cursor) return; // drained
          queue = pick === "random" ? ids.sort(() => Math.random() - 0.5).slice(0, 10) : ids.filter((id) => stripeOf(id) === w).reverse();
          cursor = pick === "striped" ? next : null;
          continue;
        }
        await job(queue.pop() as string);
      }
    }),
  );
  return summary();
}

/** The same two commits per job in raw SQL: claim one with SKIP LOCKED, then ack it by primary key. */
async function rawClaimAck(sql: postgres.Sql, projectId: string) {
  return closedLoop(CONNECTIONS, SECONDS, async () => {
    const [row] = await sql`update events set status = 'claimed', lease_expires_at = now() + interval '5 minutes', attempts = attempts + 1
      where id = (select id from events where project_id = ${projectId} and source = 'baseline' and status = 'pending'
        order by received_at limit 1 for update skip locked) returning id`;
    if (!row) throw new Error("drained");
    await sql`update events set status = 'done', finished_at = now() where id = ${row.id}`;
  });
}

async function wakeLatency(base: string, key: string, wakeUrl: string) {
  const afterCommit: number[] = [];
  const afterSend: number[] = [];
  for (let i = 0; i < WAKES; i++) {
    const type = `wake.${i}`;
    const waiting = http("GET", `${base}/api/v1/events/wait?source=wake&type=${type}&timeout_seconds=30`, undefined, { authorization: `Bearer ${key}` }).then(
      (r) => ({ at: performance.now(), event: JSON.parse(r.body).event }),
    );
    await new Promise((r) => setTimeout(r, 30));
    const sent = performance.now();
    const post = await http("POST", wakeUrl, JSON.stringify({ type }), { "content-type": "application/json" });
    if (post.status !== 200) throw new Error(`wake post ${post.status}`);
    const committed = performance.now();
    const woke = await waiting;
    if (woke.event?.type !== type) throw new Error(`waiter got ${JSON.stringify(woke.event)}`);
    afterCommit.push(Math.max(0, woke.at - committed));
    afterSend.push(woke.at - sent);
  }
  return { samples: WAKES, after_commit_ms: percentiles(afterCommit), after_send_ms: percentiles(afterSend) };
}

async function whoami(base: string, key: string) {
  const call = async () => {
    const res = await http("GET", `${base}/api/v1/whoami`, undefined, { authorization: `Bearer ${key}` });
    if (res.status !== 200) throw new Error(`whoami ${res.status}`);
  };
  return closedLoop(CONNECTIONS, Math.min(SECONDS, 5), call);
}

async function main() {
  const db = await freshDatabase("brynth_bench_events");
  const sql = postgres(db.url, { max: CONNECTIONS + 2, onnotice: () => {} });
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: "20",
    BENCH_HMAC_SECRET: SECRET,
    LOG_LEVEL: "warn",
    DATA_DIR: "/tmp/brynth-bench-events",
  };
  const brynth = await startProcess(
    process.execPath,
    // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles Brynth's process.
    [...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean), "--import", "tsx", "bench/support/events-api-server.ts"],
    env,
    /ready (\S+) (\S+) (\S+) (\S+) (\S+)/,
  );
  const [, base, key, hookUrl, wakeUrl, projectId] = brynth.match;
  const baseline = await startProcess(
    process.execPath,
    ["--import", "tsx", "bench/support/events-baseline-server.ts"],
    { ...env, BENCH_PROJECT_ID: projectId },
    /ready (\S+)/,
  );

  const brynthPid = brynth.child.pid!;
  const dbName = new URL(db.url).pathname.slice(1);
  const intakeBaseline = await serverCpuPerCall(baseline.child.pid!, dbName, () => intake(baseline.match[1]));
  const intakeBrynth = await serverCpuPerCall(brynthPid, dbName, () => intake(hookUrl));
  const whoamiRef = await serverCpuPerCall(brynthPid, dbName, () => whoami(base, key));
  baseline.child.kill("SIGTERM");
  await sql`vacuum analyze events`;

  const claimBrynth = await serverCpuPerCall(
    brynthPid,
    dbName,
    () => claimAck(base, key),
    (r) => r.jobs,
  );
  const claimStriped = await serverCpuPerCall(
    brynthPid,
    dbName,
    () => claimAck(base, key, "striped"),
    (r) => r.jobs,
  );
  const claimPooled = await serverCpuPerCall(
    brynthPid,
    dbName,
    () => claimAck(base, key, "pooled"),
    (r) => r.jobs,
  );
  const claimRaw = await serverCpuPerCall(null, dbName, () => rawClaimAck(sql, projectId));

  let withDone = null;
  if (DONE_ROWS > 0) {
    const t = performance.now();
    await sql`insert into events (id, project_id, source, type, status, trust, payload, content_type, payload_size, headers, received_at, available_at, attempts, finished_at)
      select 'evt_done_' || g, ${projectId}, 'bench', 'invoice.paid', 'done', 'external_untrusted', '{"done":true}'::json, 'application/json', 13, '{}'::jsonb,
        now() - interval '1 day' + g * interval '1 millisecond', now(), 1, now()
      from generate_series(1, ${DONE_ROWS}) g`;
    await sql`vacuum analyze events`;
    // Flush the bulk insert now: otherwise the checkpoint it triggers runs during the phase and is measured as
    // the claim path's cost (-32% instead of -8%, measured).
    await sql`checkpoint`;
    const seconds = ((performance.now() - t) / 1000).toFixed(1);
    const [{ pending }] = await sql`select count(*)::int as pending from events where status = 'pending' and source = 'bench'`;
    const claim_ack = await serverCpuPerCall(
      brynthPid,
      dbName,
      () => claimAck(base, key),
      (r) => r.jobs,
    );
    withDone = { done_rows_added: DONE_ROWS, insert_s: Number(seconds), pending_left: pending, claim_ack };
  }

  const wake = await wakeLatency(base, key, wakeUrl);
  const [{ doubles }] = await sql`select count(*)::int as doubles from (select event_id from event_attempts group by event_id having count(*) > 1) d`;
  brynth.child.kill("SIGTERM");
  await sql.end();
  await db.drop();

  console.log(
    JSON.stringify(
      {
        bench: "event inbox",
        connections: CONNECTIONS,
        seconds: SECONDS,
        webhook_intake: {
          brynth: intakeBrynth,
          baseline_node_http_hmac_insert: intakeBaseline,
          ratio: Number((intakeBrynth.rps / intakeBaseline.rps).toFixed(2)),
          targets: { rps: 2000, p99_ms: 25 },
        },
        reference_whoami_rest: whoamiRef,
        claim_ack_rest: {
          brynth: claimBrynth,
          brynth_striped_consumers: claimStriped,
          brynth_pooled_consumers: claimPooled,
          baseline_raw_sql_two_commits: claimRaw,
          // Jobs/s over the raw SQL's: the share of what Postgres alone does here that the REST API keeps.
          ratio_striped_to_raw_sql: Number((claimStriped.jobs_per_s / claimRaw.rps).toFixed(2)),
          ratio_pooled_to_raw_sql: Number((claimPooled.jobs_per_s / claimRaw.rps).toFixed(2)),
          targets: { jobs_per_s: 1000, double_claims: 0 },
        },
        claim_ack_rest_with_done_rows: withDone,
        events_claimed_more_than_once_in_db: doubles,
        inbox_wait_wake: { ...wake, targets: { p99_ms: 50 } },
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
