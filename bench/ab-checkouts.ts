/**
 * Two checkouts of Brynth on this machine, measured against each other: each runs its disk API server (fast path,
 * PostgreSQL) in its own process and database, and the same load alternates between them round by round — whoami
 * and kv_get of 1 KB by default, kv_set of 1 KB and 256 KB on request, 16 clients. On a shared machine whose speed
 * drifts by a third within minutes, only rates taken moments apart compare; CPU per call (API, Postgres, load
 * generator) is given too.
 * Run: git worktree add /tmp/base <rev> && ln -s "$PWD/node_modules" /tmp/base/ && BASE=/tmp/base npx tsx bench/ab-checkouts.ts
 *      (ROUNDS=4 SECONDS=4 CALLS=whoami,kv_get_1kb,kv_set_1kb,kv_set_256kb to change the defaults)
 */
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { serverCpuPerCall } from "./support/cpu-time";
import { closedLoop } from "./support/load";
import { freshDatabase } from "./support/processes";
import { runtimeEnv } from "../scripts/runtime-env.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 4);
const CLIENTS = 16;
const CALLS = (process.env.CALLS ?? "whoami,kv_get_1kb").split(",") as CallName[];
type CallName = "whoami" | "kv_get_1kb" | "kv_set_1kb" | "kv_set_256kb";
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function http(method: string, url: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: body ? { "content-length": String(Buffer.byteLength(body)), ...headers } : headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode! }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function start(name: string, dir: string) {
  const db = await freshDatabase("brynth_bench_ab");
  const child = spawn(process.execPath, ["--import", "tsx", "bench/support/disk-api-server.ts"], {
    cwd: dir,
    env: { ...runtimeEnv(), DATABASE_URL: db.url, DATA_DIR: `/tmp/brynth-bench-ab-${name}`, APP_SECRET: "bench-secret-bench-secret-bench-secret", NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_POOL_SIZE: "20" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [, base, key] = await new Promise<RegExpExecArray>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /ready (\S+) (\S+) (\S+)/.exec(out);
      if (m) resolve(m);
    });
    child.on("exit", (code) => reject(new Error(`${name} exited with ${code}\n${out}`)));
  });
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const value = JSON.stringify({ value: { data: "x".repeat(1000) } });
  for (let w = 0; w < CLIENTS; w++) await http("PUT", `${base}/api/v1/kv/bench%2F${w}`, value, auth);
  const big = Buffer.from(JSON.stringify({ value: { data: "x".repeat(256 * 1024 - 11) } })); // encoded once
  const sets = new Array<number>(CLIENTS).fill(0);
  const calls: Record<CallName, (w: number) => Promise<void>> = {
    whoami: async () => void (await http("GET", `${base}/api/v1/whoami`, undefined, auth)),
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
  const measure = (call: (w: number) => Promise<void>) =>
    serverCpuPerCall(child.pid!, new URL(db.url).pathname.slice(1), () => closedLoop(CLIENTS, SECONDS, call));
  return {
    name,
    calls,
    measure,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      await db.drop();
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!process.env.BASE) throw new Error("BASE=<another checkout with node_modules> is required");
  const sides = [await start("base", process.env.BASE), await start("head", process.cwd())];
  const rounds = Object.fromEntries(CALLS.map((c) => [c, [] as Record<string, unknown>[]]));
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const call of CALLS) {
        const row: Record<string, unknown> = {};
        // Alternate who goes first, so neither side always gets the warmer (or busier) moment.
        for (const side of r % 2 ? [...sides].reverse() : sides) {
          const m = await side.measure(side.calls[call]);
          const cpu = m.server_cpu_ms_per_call;
          row[side.name] = { rps: m.rps, p99_ms: m.p99_ms, cpu_ms: cpu, total_cpu_ms: Number((cpu.api + cpu.postgres + cpu.load_generator).toFixed(3)) };
        }
        row.head_per_base = Number(((row.head as { rps: number }).rps / (row.base as { rps: number }).rps).toFixed(2));
        rounds[call].push(row);
      }
    }
  } finally {
    for (const side of sides) await side.stop();
  }
  const summary = Object.fromEntries(
    Object.entries(rounds).map(([call, rows]) => [
      call,
      {
        median_head_per_base: median(rows.map((r) => r.head_per_base as number)),
        median_total_cpu_ms: Object.fromEntries(sides.map((s) => [s.name, median(rows.map((r) => (r[s.name] as { total_cpu_ms: number }).total_cpu_ms))])),
        rounds: rows,
      },
    ]),
  );
  console.log(JSON.stringify({ bench: "two checkouts, alternated", base: process.env.BASE, clients: CLIENTS, seconds: SECONDS, ...summary }, null, 2));
  agent.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
