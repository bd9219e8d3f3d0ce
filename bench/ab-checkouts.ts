/**
 * Two checkouts of Brynth on this machine, measured against each other: each runs its API servers (fast path,
 * PostgreSQL) in their own processes and databases, and the same load alternates between them round by round,
 * 16 clients. Call kinds: whoami and kv_get of 1 KB by default; kv_set of 1 KB and 256 KB; webhook_intake
 * (HMAC-signed deliveries to a source's hook URL) and claim_ack_pooled (consumers sharing one listing queue, each
 * job a claim + ack over REST, as bench/events.ts's pooled phase). On a shared machine whose speed drifts by a
 * third within minutes, only rates taken moments apart compare; per call kind the output gives each side's rate
 * and p99 per round and the medians of head/base, with CPU per call (API, Postgres, load generator).
 * Both sides start servers from their own checkout: bench/support/disk-api-server.ts (whoami, kv) and, for the
 * event kinds, bench/support/events-api-server.ts — both exist since before d9814d1, with the same `ready` lines.
 * Run: git worktree add /tmp/base <rev> && ln -s "$PWD/node_modules" /tmp/base/ && BASE=/tmp/base npx tsx bench/ab-checkouts.ts
 *      (ROUNDS=4 SECONDS=4 CALLS=whoami,kv_get_1kb,kv_set_1kb,kv_set_256kb,webhook_intake,claim_ack_pooled to change
 *      the defaults)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { serverCpuPerCall } from "./support/cpu-time";
import { closedLoop } from "./support/load";
import { pooledClaimAck } from "./support/pooled-claim-ack";
import { BENCH_KEY_LIMITS, freshDatabase } from "./support/processes";
import { signedDelivery } from "./support/signed-delivery";
import { http, httpAgent } from "./support/http";
import { runtimeEnv } from "../scripts/runtime-env.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 4);
const CLIENTS = 16;
const CALL_NAMES = ["whoami", "kv_get_1kb", "kv_set_1kb", "kv_set_256kb", "webhook_intake", "claim_ack_pooled"] as const;
type CallName = (typeof CALL_NAMES)[number];
const CALLS = (process.env.CALLS ?? "whoami,kv_get_1kb").split(",") as CallName[];
const unknown = CALLS.filter((c) => !CALL_NAMES.includes(c));
if (unknown.length) throw new Error(`unknown CALLS ${unknown.join(",")}; known: ${CALL_NAMES.join(",")}`);
const EVENT_CALLS = CALLS.some((c) => c === "webhook_intake" || c === "claim_ack_pooled");
const HMAC_SECRET = `bench-${randomBytes(8).toString("hex")}`;
/** Starts `script` from checkout `dir` on a fresh database; resolves with the fields of its `ready …` line. */
async function startServer(name: string, dir: string, script: string, fields: number) {
  const db = await freshDatabase("brynth_bench_ab");
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: dir,
    env: {
      ...runtimeEnv(),
      DATABASE_URL: db.url,
      DATA_DIR: `/tmp/brynth-bench-ab-${name}`,
      APP_SECRET: "bench-secret-bench-secret-bench-secret",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      DATABASE_POOL_SIZE: "20",
      BENCH_HMAC_SECRET: HMAC_SECRET,
      // Ignored by checkouts that predate the limits; see processes.ts.
      ...BENCH_KEY_LIMITS,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = new RegExp(`ready${" (\\S+)".repeat(fields)}`);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) resolve(m);
    });
    child.on("exit", (code) => reject(new Error(`${name} ${script} exited with ${code}\n${out}`)));
  });
  return {
    child,
    db,
    dbName: new URL(db.url).pathname.slice(1),
    fields: match.slice(1),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      await db.drop();
    },
  };
}

/** One measurement of a call kind: its rate (calls or jobs per second), p99 and CPU per call. */
type Measured = { rps: number; p99_ms: number | null; cpu: { api: number; postgres: number; load_generator: number }; extra?: Record<string, unknown> };

async function start(name: string, dir: string) {
  const disk = await startServer(name, dir, "bench/support/disk-api-server.ts", 3);
  const events = EVENT_CALLS ? await startServer(`${name}-events`, dir, "bench/support/events-api-server.ts", 5) : null;
  const [base, key] = disk.fields;
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const value = JSON.stringify({ value: { data: "x".repeat(1000) } });
  for (let w = 0; w < CLIENTS; w++) await http("PUT", `${base}/api/v1/kv/bench%2F${w}`, value, auth);
  const big = Buffer.from(JSON.stringify({ value: { data: "x".repeat(256 * 1024 - 11) } })); // encoded once
  const sets = new Array<number>(CLIENTS).fill(0);
  const calls: Record<"whoami" | "kv_get_1kb" | "kv_set_1kb" | "kv_set_256kb", (w: number) => Promise<void>> = {
    whoami: async () => {
      if ((await http("GET", `${base}/api/v1/whoami`, undefined, auth)).status !== 200) throw new Error("whoami");
    },
    kv_get_1kb: async (w: number) => {
      if ((await http("GET", `${base}/api/v1/kv/bench%2F${w}`, undefined, auth)).status !== 200) throw new Error("kv_get");
    },
    kv_set_1kb: async (w: number) => {
      if ((await http("PUT", `${base}/api/v1/kv/small%2F${w}%2F${sets[w]++ % 20}`, value, auth)).status !== 200) throw new Error("kv_set");
    },
    kv_set_256kb: async (w: number) => {
      if ((await http("PUT", `${base}/api/v1/kv/big%2F${w}%2F${sets[w]++ % 20}`, big, auth)).status !== 200) throw new Error("kv_set");
    },
  };
  for (let i = 0; i < 300; i++) await calls.kv_get_1kb(i % CLIENTS); // warm: modules load and compile on first use
  const closed = async (call: (w: number) => Promise<void>): Promise<Measured> => {
    const m = await serverCpuPerCall(disk.child.pid!, disk.dbName, () => closedLoop(CLIENTS, SECONDS, call));
    return { rps: m.rps, p99_ms: m.p99_ms, cpu: m.server_cpu_ms_per_call, extra: m.errors ? { errors: m.errors } : undefined };
  };
  const measures: Partial<Record<CallName, () => Promise<Measured>>> = Object.fromEntries(Object.entries(calls).map(([call, fn]) => [call, () => closed(fn)]));
  if (events) Object.assign(measures, await eventMeasures(events));
  return {
    name,
    measures,
    stop: async () => {
      await disk.stop();
      await events?.stop();
    },
  };
}

/**
 * webhook_intake and claim_ack_pooled on a side's events server. Deliveries land as pending events of the
 * `bench` source, which the claim phase then works through; before each claim phase the queue is topped up
 * (unmeasured) to what the last phase took, times 1.5, so it does not run dry.
 */
async function eventMeasures(server: Awaited<ReturnType<typeof startServer>>) {
  const [base, key, hookUrl] = server.fields;
  let sent = 0;
  let pending = 0;
  const deliver = async () => {
    const d = signedDelivery(sent++, HMAC_SECRET);
    const res = await http("POST", hookUrl, d.body, { "content-type": "application/json", "x-signature": d.signature });
    if (res.status !== 200) throw new Error(`webhook ${res.status} ${res.body}`);
    pending++;
  };
  let lastJobs = 2000;
  const topUp = async () => {
    const target = Math.ceil(lastJobs * 1.5);
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (pending < target) await deliver();
      }),
    );
  };
  const claimAck = () => pooledClaimAck({ http, base, key, source: "bench", consumers: CLIENTS, seconds: SECONDS });
  // warm: modules load and compile on first use
  for (let i = 0; i < 300; i++) await deliver();
  const warm = await pooledClaimAck({ http, base, key, source: "bench", consumers: CLIENTS, seconds: 1 });
  pending -= warm.jobs;
  return {
    webhook_intake: async (): Promise<Measured> => {
      const m = await serverCpuPerCall(server.child.pid!, server.dbName, () => closedLoop(CLIENTS, SECONDS, deliver));
      return { rps: m.rps, p99_ms: m.p99_ms, cpu: m.server_cpu_ms_per_call, extra: m.errors ? { errors: m.errors } : undefined };
    },
    claim_ack_pooled: async (): Promise<Measured> => {
      await topUp();
      const m = await serverCpuPerCall(server.child.pid!, server.dbName, claimAck, (r) => r.jobs);
      pending -= m.jobs;
      lastJobs = Math.max(lastJobs, m.jobs);
      const extra = { jobs: m.jobs, lost_races_409: m.lost_races_409, double_claims: m.double_claims, ...(m.drained ? { drained: true } : {}) };
      return { rps: m.jobs_per_s, p99_ms: m.claim_ack_ms.p99_ms, cpu: m.server_cpu_ms_per_call, extra };
    },
  };
}

const median = (xs: (number | null)[]) => {
  const s = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : Number((a / b).toFixed(2)));

async function main() {
  if (!process.env.BASE) throw new Error("BASE=<another checkout with node_modules> is required");
  const sides: Awaited<ReturnType<typeof start>>[] = [];
  const stopAll = async () => {
    for (const side of sides) await side.stop();
  };
  try {
    sides.push(await start("base", process.env.BASE));
    sides.push(await start("head", process.cwd()));
  } catch (err) {
    await stopAll();
    throw err;
  }
  const rounds = Object.fromEntries(CALLS.map((c) => [c, [] as Record<string, unknown>[]]));
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const call of CALLS) {
        const row: Record<string, unknown> = {};
        // Alternate who goes first, so neither side always gets the warmer (or busier) moment.
        for (const side of r % 2 ? [...sides].reverse() : sides) {
          const m = await side.measures[call]!();
          const cpu = m.cpu;
          row[side.name] = {
            rps: m.rps,
            p99_ms: m.p99_ms,
            cpu_ms: cpu,
            total_cpu_ms: Number((cpu.api + cpu.postgres + cpu.load_generator).toFixed(3)),
            ...m.extra,
          };
        }
        const head = row.head as Measured;
        const base = row.base as Measured;
        row.head_per_base = ratio(head.rps, base.rps);
        row.p99_head_per_base = ratio(head.p99_ms, base.p99_ms);
        rounds[call].push(row);
      }
    }
  } finally {
    await stopAll();
  }
  const summary = Object.fromEntries(
    Object.entries(rounds).map(([call, rows]) => [
      call,
      {
        // Rate is calls/s (claim_ack_pooled: jobs/s, one job = claim + ack); p99 is per call (per job). Head per
        // base: above 1 is faster for rates, below 1 is faster for p99.
        median_rps: Object.fromEntries(sides.map((s) => [s.name, median(rows.map((r) => (r[s.name] as Measured).rps))])),
        median_p99_ms: Object.fromEntries(sides.map((s) => [s.name, median(rows.map((r) => (r[s.name] as Measured).p99_ms))])),
        median_head_per_base: median(rows.map((r) => r.head_per_base as number | null)),
        median_p99_head_per_base: median(rows.map((r) => r.p99_head_per_base as number | null)),
        median_total_cpu_ms: Object.fromEntries(sides.map((s) => [s.name, median(rows.map((r) => (r[s.name] as { total_cpu_ms: number }).total_cpu_ms))])),
        rounds: rows,
      },
    ]),
  );
  console.log(JSON.stringify({ bench: "two checkouts, alternated", base: process.env.BASE, clients: CLIENTS, seconds: SECONDS, ...summary }, null, 2));
  httpAgent.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
