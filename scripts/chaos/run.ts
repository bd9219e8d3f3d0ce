/**
 * Chaos run (`npm run test:chaos`, issue 15): three production instances on one PostgreSQL of our own, behind a
 * round-robin proxy, under a mix of signed webhooks, claim + ack, kv_set/kv_get over REST and MCP sessions that
 * move between instances — while one instance is killed with SIGKILL and restarted, PostgreSQL is restarted, and
 * another instance is stopped with SIGTERM (it must drain and exit on its own) and restarted.
 * Then it checks that nothing acknowledged was lost or done twice, prints the counts as JSON, and exits non-zero
 * when a check fails. Errors during the faults (502s, resets, 503s) are expected: they are counted, not failures.
 * Needs a production build (`npm run build`). LOAD_SECONDS (default 60) sets the
 * least length of the load.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { connectMcp } from "../../lib/testing/mcp-client";
import { checkAnswers, checkCompletions, checkDeliveries, checkKv, checkRecovery, type Check } from "./checks";
import { freePort } from "./free-port";
import { call, slowest } from "./http-call";
import { productionInstance } from "./instances";
import { kvBook } from "./kv-book";
import { claimAndAck } from "./load-claim-ack";
import { kvLoad } from "./load-kv";
import { mcpLoad } from "./load-mcp";
import { sendWebhooks } from "./load-webhooks";
import { log } from "./log";
import { setupProject } from "./setup-project";
import { startPrivatePostgres } from "./private-postgres";
import { startRoundRobinProxy } from "./round-robin-proxy";
import { watchReadiness } from "./readiness-watch";

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** Load that goes on after the last fault, so that recovering from it is under load too. */
const AFTER_FAULTS_S = 10;
/** The whole run, startup and checks included, must end well inside CI's 3 minutes; past this it stops as failed. */
const DEADLINE_S = 170;
const OWNER = { email: "chaos@example.com", password: "chaos-run-password" };
const SOURCE = "chaos";
/** After the faults a healthy instance answers a point read in milliseconds; this long without an answer is stuck. */
const SETTLED_TIMEOUT_MS = 5000;
/**
 * The instances' HTTP_STOP_GRACE_SECONDS (and their jobs' default grace, which runs beside it): a rolling restart's
 * SIGTERM must have ended the process by then and STOP_MARGIN_S more (closing the database, stopping the services).
 */
const STOP_GRACE_S = 10;
const STOP_MARGIN_S = 10;

const cleanups: (() => unknown)[] = [];
let cleaning: Promise<void> | null = null;
/** Runs once, newest first; every step is tried even when an earlier one fails. */
const cleanup = () =>
  (cleaning ??= (async () => {
    for (const step of cleanups.reverse())
      await Promise.resolve()
        .then(step)
        .catch((err) => console.error("[chaos] cleanup:", err));
  })());

async function main() {
  if (!existsSync("dist/server.mjs") || !existsSync(".next/BUILD_ID")) throw new Error("no production build: run `npm run build` first");
  const pg = await startPrivatePostgres();
  cleanups.push(pg.remove);
  log(`private PostgreSQL on ${pg.url}`);

  const ports = [await freePort(), await freePort(), await freePort()];
  const proxy = await startRoundRobinProxy(ports);
  cleanups.push(proxy.close);
  const dataDir = mkdtempSync(join(tmpdir(), "brynth-chaos-data-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PUBLIC_URL: proxy.url,
    DATABASE_URL: pg.url,
    // One APP_SECRET for all: secrets one instance encrypts, another decrypts.
    APP_SECRET: randomBytes(32).toString("hex"),
    DATA_DIR: dataDir,
    OWNER_EMAIL: OWNER.email,
    OWNER_PASSWORD: OWNER.password,
    SMTP_PORT: "0",
    LOG_LEVEL: "error",
    // The per-key, per-source and per-address limits are per instance and would refuse part of this load; each is tested on its own.
    KEY_CALLS_PER_MINUTE: "0",
    SOURCE_DELIVERIES_PER_MINUTE: "0",
    HTTP_MAX_CONNECTIONS_PER_IP: "0",
    HTTP_STOP_GRACE_SECONDS: String(STOP_GRACE_S),
    NEXTAUTH_URL: undefined,
    S3_BUCKET: undefined,
    SMTP_RELAY_URL: undefined,
  };
  const instances = ports.map((port, i) => productionInstance(`instance ${i + 1}`, port, env));
  for (const instance of instances) cleanups.push(instance.kill9);
  // The first start migrates and creates the owner alone; the others then start side by side.
  await instances[0].start();
  await Promise.all(instances.slice(1).map((i) => i.start()));
  log(`3 instances on ports ${ports.join(", ")} behind ${proxy.url}`);

  const api = `${proxy.url}/api/v1`;
  const { key, auth, secret, hookUrl, projectId } = await setupProject(api, OWNER, SOURCE);
  log(`project ${projectId}, source ${SOURCE} (standard_webhooks) at ${hookUrl}`);

  // The load runs LOAD_SECONDS, and on past the faults (a restart is slow on a busy machine) so recovery is loaded too.
  const loadEnd = performance.now() + LOAD_SECONDS * 1000;
  const fault = { over: false, overAt: 0 };
  const until = () => performance.now() >= loadEnd && fault.over && performance.now() >= fault.overAt + AFTER_FAULTS_S * 1000;
  const book = kvBook();
  const direct = ports.map((port, i) => ({ name: `instance ${i + 1}`, base: `http://127.0.0.1:${port}` }));
  const readiness = watchReadiness(direct, until);
  log(`load for ${LOAD_SECONDS} s at least: 4 webhook senders, 3 claim/ack workers, 3 REST kv writers, 2 MCP sessions`);
  const [webhooks, claims, kv, mcp, faults] = await Promise.all([
    sendWebhooks({ hookUrl, secret, senders: 4, until }),
    claimAndAck({ api, key, source: SOURCE, workers: 3, until }),
    kvLoad({ api, key, writers: 3, book, until }),
    mcpLoad({ base: proxy.url, key, clients: 2, book, until }),
    runFaults(instances[1], pg.restart, instances[2], () => proxy.tally.answered_502).finally(() =>
      Object.assign(fault, { over: true, overAt: performance.now() }),
    ),
  ]);
  await readiness.done;
  log("load over; checking");

  const sql = postgres(pg.url, { max: 2, onnotice: () => {} });
  cleanups.push(() => sql.end({ timeout: 1 }));
  const readSeq = async (k: string) => {
    const res = await call("GET", `${api}/kv/${k}`, { headers: auth, timeoutMs: SETTLED_TIMEOUT_MS });
    if (res.status !== 200) throw new Error(`kv_get ${k} after the run: ${res.status} ${res.error ?? JSON.stringify(res.body)}`);
    return (res.body.value?.seq as number | undefined) ?? null;
  };
  // Each instance directly, on each path the load took: whoami (key lookup), kv_get (a coalesced read), the list;
  // and its readiness, as a balancer would ask before sending it traffic again.
  const probe = async (base: string) => {
    const paths = ["/api/v1/whoami", "/api/v1/kv/chaos/probe", `/api/v1/events?source=${SOURCE}&limit=1`, "/readyz"];
    const answers = await Promise.all(paths.map((p) => call("GET", `${base}${p}`, { headers: auth, timeoutMs: SETTLED_TIMEOUT_MS })));
    return Object.fromEntries(paths.map((p, i) => [p, answers[i].status || (answers[i].error ?? "no answer")]));
  };
  const recovery = await checkRecovery(direct, probe);
  const { client } = await connectMcp(proxy.url, key);
  const verify = (await client.callTool({ name: "ledger_verify", arguments: {} }, undefined, { timeout: 30_000 })).structuredContent as {
    ok: boolean;
    checked: number;
    reason: string | null;
  };
  await client.close();
  const answers = { webhooks: webhooks.answers, claim_ack: claims.answers, kv_rest: kv, mcp: mcp.answers };
  const checks: Record<string, Check> = {
    recovery,
    answers: checkAnswers(answers),
    deliveries: await checkDeliveries(sql, projectId, SOURCE, webhooks.acknowledged),
    completions: await checkCompletions(sql, projectId, SOURCE, claims.completions),
    kv: await checkKv(readSeq, book),
    ledger: { counts: { checked: verify.checked }, failures: verify.ok ? [] : [`ledger_verify is not ok: ${verify.reason}`] },
    graceful_stop: {
      counts: { exit_code: faults.graceful_exit_code, stop_s: faults.graceful_stop_s },
      failures:
        faults.graceful_exit_code === 0
          ? []
          : [`SIGTERM did not end the instance with exit 0 within ${STOP_GRACE_S} s and ${STOP_MARGIN_S} s more (exit ${faults.graceful_exit_code})`],
    },
    mcp_sessions: {
      counts: { ...mcp.tally, served_by_several_instances: mcp.sessionIds.filter((id) => (proxy.sessions.get(id)?.size ?? 0) > 1).length },
      failures: mcp.tally.sessions_lost_404 > 0 ? [`${mcp.tally.sessions_lost_404} MCP sessions were refused as unknown by another instance`] : [],
    },
  };
  const failed = Object.entries(checks).flatMap(([name, c]) => c.failures.map((f) => `${name}: ${f}`));
  console.log(
    JSON.stringify(
      {
        chaos: failed.length ? "failed" : "ok",
        load_seconds: LOAD_SECONDS,
        run_seconds: Math.round(performance.now() / 1000),
        faults,
        checks: Object.fromEntries(Object.entries(checks).map(([name, c]) => [name, { ...c.counts, failures: c.failures }])),
        answers,
        tallies: { webhooks: webhooks.tally, claim_ack: claims.tally },
        slowest_answer: slowest,
        readiness: readiness.report(),
        proxy: proxy.tally,
      },
      null,
      2,
    ),
  );
  if (failed.length) throw new Error(`${failed.length} checks failed:\n  ${failed.join("\n  ")}`);
  log("all checks passed");
}

/**
 * The faults, one after the other under load: SIGKILL of one instance, its restart, then a PostgreSQL restart once
 * the instance is back (an instance starting while the database restarts would fail its migrations and exit), then
 * a rolling restart of another: SIGTERM, which must drain and exit 0 on its own within its grace, and its restart.
 */
async function runFaults(
  victim: ReturnType<typeof productionInstance>,
  restartPostgres: () => Promise<void>,
  rolled: ReturnType<typeof productionInstance>,
  brokenPosts: () => number,
) {
  const pause = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
  const took = (t: number) => Number(((performance.now() - t) / 1000).toFixed(1));
  const faults: Record<string, number> = {};
  await pause(LOAD_SECONDS * 0.15);
  log(`kill -9 ${victim.name}`);
  await victim.kill9();
  await pause(5);
  let t = performance.now();
  log(`restarting ${victim.name}`);
  await victim.start();
  faults.instance_restart_s = took(t);
  log(`${victim.name} is back`);
  await pause(5);
  t = performance.now();
  log("restarting PostgreSQL (pg_ctl restart -m fast); the instances log the queries it cuts, as they should");
  await restartPostgres();
  faults.postgres_restart_s = took(t);
  log("PostgreSQL is back");
  await pause(5);
  const broken = brokenPosts();
  t = performance.now();
  log(`SIGTERM ${rolled.name} (a rolling restart: it drains, then exits)`);
  faults.graceful_exit_code = (await rolled.stop((STOP_GRACE_S + STOP_MARGIN_S) * 1000)) ?? -1;
  faults.graceful_stop_s = took(t);
  await rolled.start();
  faults.graceful_restart_s = took(t);
  // Reported, not checked: a POST sent on a kept-alive connection in the instant the drain closes it (one left unused
  // for a second) is cut, the race every keep-alive server has; a request the instance had begun is answered.
  faults.graceful_restart_broken_posts = brokenPosts() - broken;
  log(`${rolled.name} is back`);
  return faults;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    void cleanup().then(() => process.exit(130));
  });
}
const watchdog = setTimeout(() => {
  console.error(`[chaos] FAILED: the run took over ${DEADLINE_S} s`);
  void cleanup().then(() => process.exit(1));
}, DEADLINE_S * 1000);

main()
  .then(async () => {
    clearTimeout(watchdog);
    await cleanup();
    process.exit(0);
  })
  .catch(async (err) => {
    clearTimeout(watchdog);
    console.error(`[chaos] FAILED: ${err instanceof Error ? err.message : err}`);
    await cleanup();
    process.exit(1);
  });
