/**
 * tools/call whoami over MCP, 10 concurrent clients for 10 s, against the production build (dist/server.mjs) on
 * Postgres; in the same run the bare SDK stateless server in plain node:http as the baseline.
 * Run: npm run build && npx tsx bench/mcp.ts
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedLoop } from "./support/load";
import { freshDatabase, startProcess } from "./support/processes";

const CLIENTS = Number(process.env.CLIENTS ?? 10);
const SECONDS = Number(process.env.SECONDS ?? 10);
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } });
const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});

async function main() {
  if (!existsSync("dist/server.mjs")) throw new Error("Run `npm run build` first: the benchmark measures the production build.");
  const db = await freshDatabase("brynth_bench_mcp");
  const port = 3900 + Math.floor(Math.random() * 90);
  const brynth = await startProcess(
    process.execPath,
    // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
    [...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean), "dist/server.mjs"],
    {
      NODE_ENV: "production",
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(join(tmpdir(), "brynth-bench-")),
      OWNER_EMAIL: "bench@example.com",
      OWNER_PASSWORD: "bench-password-123",
      DATABASE_POOL_SIZE: "20",
    },
    /Brynth ready on (\S+)/,
  );
  const base = `http://127.0.0.1:${port}`;
  const owner = `Basic ${Buffer.from("bench@example.com:bench-password-123").toString("base64")}`;
  const key = await (
    await fetch(`${base}/api/v1/keys`, {
      method: "POST",
      headers: { authorization: owner, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench", scopes: ["ledger:read"] }),
    })
  ).json();
  const auth = { ...headers, authorization: `Bearer ${key.secret}` };
  const sessions = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const res = await fetch(`${base}/mcp`, { method: "POST", headers: auth, body: init });
      return res.headers.get("mcp-session-id")!;
    }),
  );
  const brynthCall = async (w: number) => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...auth, "mcp-session-id": sessions[w], "mcp-protocol-version": "2025-11-25" },
      body: call,
    });
    const body = await res.json();
    if (!body.result?.structuredContent) throw new Error("bad response");
  };
  for (let i = 0; i < 200; i++) await brynthCall(i % CLIENTS); // warm-up
  const brynthResult = await closedLoop(CLIENTS, SECONDS, brynthCall);
  brynth.child.kill("SIGTERM");

  const baseline = await startProcess(process.execPath, ["--import", "tsx", "bench/support/sdk-baseline-server.ts"], {}, /ready (\S+)/);
  const baseUrl = baseline.match[1];
  const baselineCall = async () => {
    const res = await fetch(baseUrl, { method: "POST", headers, body: call });
    const body = await res.json();
    if (!body.result) throw new Error("bad response");
  };
  for (let i = 0; i < 200; i++) await baselineCall();
  const baselineResult = await closedLoop(CLIENTS, SECONDS, baselineCall);
  baseline.child.kill("SIGTERM");
  await db.drop();

  console.log(
    JSON.stringify(
      {
        bench: "mcp tools/call whoami",
        clients: CLIENTS,
        seconds: SECONDS,
        brynth: brynthResult,
        baseline_sdk_stateless: baselineResult,
        ratio: Number((brynthResult.rps / baselineResult.rps).toFixed(2)),
        targets: { rps: 1000, p99_ms: 50, ratio: 0.8 },
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
