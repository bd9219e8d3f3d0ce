/**
 * Owner REST (issue 19 item 8): what a script pays to act as the owner. The same read (the project's sources, one
 * domain function) four ways in alternating slices, so a drift in machine load weighs on all: the key's tool route
 * (`GET /sources`, Bearer), the owner route with HTTP Basic (`GET /owner/sources`) on a server that keeps verified
 * credentials a minute (lib/auth/owner-basic-cache.ts) and on one with that cache off (argon2id on every call: the
 * A/B), and the README's setup script's requests (create project → create key → whoami) back to back.
 * Brynth's fast path in its own processes, on Postgres.
 * Run: npx tsx bench/owner-rest.ts   (SECONDS=8 CLIENTS=4 SLICES=4 to change the load)
 */
import { OWNER_EMAIL, OWNER_PASSWORD } from "@/lib/testing/seed";
import { http, httpAgent } from "./support/http";
import { closedLoop, percentiles } from "./support/load";
import { freshDatabase, startProcess } from "./support/processes";

const CLIENTS = Number(process.env.CLIENTS ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 8);
const SLICES = Number(process.env.SLICES ?? 4);
const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;

async function main() {
  const start = async (name: string, env: Record<string, string>) => {
    const db = await freshDatabase(name);
    const brynth = await startProcess(
      process.execPath,
      ["--import", "tsx", "bench/support/owner-api-server.ts"],
      { ...process.env, NODE_ENV: "production", DATABASE_URL: db.url, DATABASE_POOL_SIZE: "20", LOG_LEVEL: "warn", ...env },
      /ready (\S+) (\S+) (\S+)/,
    );
    return { db, brynth };
  };
  const cached = await start("brynth_bench_owner_rest", {});
  const uncached = await start("brynth_bench_owner_rest_b", { OWNER_BASIC_UNCACHED: "1" });
  const [, base, projectId, key] = cached.brynth.match;
  const [, baseB, projectB] = uncached.brynth.match;
  const ok = async (p: Promise<{ status: number; body: string }>) => {
    const res = await p;
    if (res.status >= 300) throw new Error(`${res.status} ${res.body}`);
    return JSON.parse(res.body);
  };
  const owner = { authorization: basic, "content-type": "application/json", "x-brynth-project": projectId };
  let n = 0;
  const sides = {
    key_tool_route: () => ok(http("GET", `${base}/api/v1/sources`, undefined, { authorization: `Bearer ${key}` })),
    owner_basic_route: () => ok(http("GET", `${base}/api/v1/owner/sources`, undefined, owner)),
    owner_basic_uncached: () => ok(http("GET", `${baseB}/api/v1/owner/sources`, undefined, { ...owner, "x-brynth-project": projectB })),
    setup_sequence: async () => {
      const project = await ok(http("POST", `${base}/api/v1/projects`, JSON.stringify({ name: `bench ${n++}` }), owner));
      const made = await ok(
        http("POST", `${base}/api/v1/keys`, JSON.stringify({ name: "agent", scopes: ["ledger:read"] }), { ...owner, "x-brynth-project": project.id }),
      );
      await ok(http("GET", `${base}/api/v1/whoami`, undefined, { authorization: `Bearer ${made.secret}` }));
    },
  };
  type Side = keyof typeof sides;
  const names = Object.keys(sides) as Side[];
  try {
    for (const side of names) for (let i = 0; i < 20; i++) await sides[side](); // warm-up: JIT, caches, pools
    const latencies = Object.fromEntries(names.map((s) => [s, [] as number[]])) as Record<Side, number[]>;
    const counts = Object.fromEntries(names.map((s) => [s, { requests: 0, errors: 0, seconds: 0 }])) as Record<
      Side,
      { requests: number; errors: number; seconds: number }
    >;
    for (let s = 0; s < SLICES; s++) {
      for (const side of names) {
        const t0 = performance.now();
        const run = await closedLoop(CLIENTS, SECONDS / SLICES, async () => {
          const t = performance.now();
          await sides[side]();
          latencies[side].push(performance.now() - t);
        });
        counts[side].requests += run.requests;
        counts[side].errors += run.errors;
        counts[side].seconds += (performance.now() - t0) / 1000;
      }
    }
    const summary = (side: Side) => ({
      per_second: Math.round(counts[side].requests / counts[side].seconds),
      errors: counts[side].errors,
      ...percentiles(latencies[side]),
    });
    const keySide = summary("key_tool_route");
    const basicSide = summary("owner_basic_route");
    const uncachedSide = summary("owner_basic_uncached");
    console.log(
      JSON.stringify(
        {
          benchmark: "owner-rest",
          clients: CLIENTS,
          seconds_per_side: SECONDS,
          slices: SLICES,
          key_tool_route: keySide,
          owner_basic_route: basicSide,
          owner_basic_uncached: uncachedSide,
          setup_sequence: summary("setup_sequence"),
          basic_throughput_ratio: Number((basicSide.per_second / keySide.per_second).toFixed(3)),
          uncached_basic_throughput_ratio: Number((uncachedSide.per_second / keySide.per_second).toFixed(3)),
          basic_cache_speedup: Number((basicSide.per_second / uncachedSide.per_second).toFixed(2)),
          basic_p50_added_ms: Number(((basicSide.p50_ms ?? 0) - (keySide.p50_ms ?? 0)).toFixed(2)),
        },
        null,
        2,
      ),
    );
  } finally {
    for (const side of [cached, uncached]) side.brynth.child.kill("SIGTERM");
    httpAgent.destroy();
    for (const side of [cached, uncached]) await side.db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
