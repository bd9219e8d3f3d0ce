/**
 * Approvals, on PostgreSQL, against the real MCP/REST handlers in a server process of their own:
 * 1. decision → answer: 200 agents each wait in ask_approval (wait_seconds 60) over MCP; the owner decides, half the
 *    time through the decide domain call (in this process), half through owner REST with a dashboard session cookie
 *    (the dashboard's POST); measured from the decision's start to the agent's MCP response (p50/p99).
 *    Baselines in the same run: a plain MCP round trip (request_status) and a bare LISTEN/NOTIFY round trip.
 * 2. ask_approval calls/s that the policy auto-approves (10 clients, 10 s); baseline: whoami calls/s, same clients.
 * Besides calls/s, the CPU the server side (API process + Postgres backends) spends per call, which hardly depends
 * on other load on the machine, and the calls/s two idle cores would give at that cost.
 * Targets: p99 ≤ 100 ms; ≥ 500 calls/s. Run: npx tsx bench/approvals.ts
 */
import { closedLoop, percentiles } from "./support/load";
import { benchOwner } from "./support/bench-owner";
import { startProcess } from "./support/processes";
import { serverCpuPerCall } from "./support/cpu-time";

const REQUESTS = Number(process.env.REQUESTS ?? 200);
const CLIENTS = Number(process.env.CLIENTS ?? 10);
const SECONDS = Number(process.env.SECONDS ?? 10);

async function main() {
  const { database, db, owner, project, actor, close } = await benchOwner("brynth_bench_approvals");
  const { createKey } = await import("@/lib/keys/create-key");
  const { onRequestChange } = await import("@/lib/approvals/requests-channel");
  const { listen } = await import("@/lib/db/notify");
  const { sql } = await import("drizzle-orm");
  const { setPolicyAsOwner } = await import("@/lib/policy/set-policy-as-owner");
  const { decideAsOwner } = await import("@/lib/approvals/decide-as-owner");
  const { startOwnerSession } = await import("@/lib/owners/owner-sessions");
  const { nextAuthSecret } = await import("@/lib/auth/auth-secret");
  const { encode } = await import("next-auth/jwt");
  const { secret } = await db.transaction((tx) => createKey(tx, { actor, name: "bench", scopes: ["approvals"] }));

  const session = await startOwnerSession(db, { ownerId: owner.id });
  const cookie = `next-auth.session-token=${await encode({ token: { sub: owner.id, sid: session.id }, secret: nextAuthSecret() })}`;
  const server = await startProcess(
    process.execPath,
    // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API process.
    [...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean), "--import", "tsx", "lib/testing/api-instance.ts"],
    { NODE_ENV: "production", DATABASE_URL: database.url, DATABASE_POOL_SIZE: "20", APP_SECRET: process.env.APP_SECRET },
    /ready (\S+)/,
  );
  const base = server.match[1];
  const mcpHeaders = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${secret}`,
    "mcp-protocol-version": "2025-11-25",
  };
  let rpcId = 0;
  /** One tools/call; the answer may come as JSON or as an SSE stream (waiting tools): either way, its result. */
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: mcpHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name, arguments: args } }),
    });
    const text = await res.text();
    const json = res.headers.get("content-type")?.includes("event-stream")
      ? JSON.parse(
          text
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5))
            .filter((d) => d.includes('"result"'))
            .pop()!,
        )
      : JSON.parse(text);
    if (json.result?.isError || !json.result?.structuredContent) throw new Error(`bad response: ${text.slice(0, 300)}`);
    return json.result.structuredContent as Record<string, unknown>;
  };
  const decideByPost = (id: string) =>
    fetch(`${base}/api/v1/requests/${id}/decision`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", "x-brynth-project": project.id },
      body: JSON.stringify({ outcome: "approve" }),
    }).then(async (r) => {
      if (r.status !== 200) throw new Error(`decision failed: ${r.status} ${await r.text()}`);
    });
  const decideByCall = (id: string) => db.transaction((tx) => decideAsOwner(tx, { actor, requestId: id, verdict: { outcome: "approve" } }));

  // 1. Decision → the waiting agent's answer.
  let nextCreated: ((id: string) => void) | null = null;
  const stop = await onRequestChange((c) => c.status === "pending" && nextCreated?.(c.id));
  const latencies = { domain_call: [] as number[], dashboard_post: [] as number[] };
  const decisionTimes = { domain_call: [] as number[], dashboard_post: [] as number[] };
  for (let i = 0; i < 20 + REQUESTS; i++) {
    const idPromise = new Promise<string>((resolve) => (nextCreated = resolve));
    const answer = callTool("ask_approval", { action: "refund", summary: `Refund order ${i}?`, wait_seconds: 60 }).then((out) => ({
      out,
      at: performance.now(),
    }));
    const id = await idPromise;
    await new Promise((r) => setTimeout(r, 20)); // let the agent's call settle into its wait
    const way = i % 2 === 0 ? "domain_call" : "dashboard_post";
    const t0 = performance.now();
    await (way === "domain_call" ? decideByCall(id) : decideByPost(id));
    const decided = performance.now();
    const { out, at } = await answer;
    if (out.status !== "approved") throw new Error(`unexpected status ${out.status}`);
    if (i >= 20) {
      latencies[way].push(at - t0);
      decisionTimes[way].push(decided - t0);
    }
  }
  stop();
  const plainCalls: number[] = [];
  const anyId = (await callTool("ask_approval", { action: "x", summary: "x?", wait_seconds: 0 })).request_id as string;
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    await callTool("request_status", { request_id: anyId });
    plainCalls.push(performance.now() - t);
  }
  const notifyTrips: number[] = [];
  let heard: (() => void) | null = null;
  const unlisten = await listen("bench_ping", () => heard?.());
  for (let i = 0; i < REQUESTS; i++) {
    const got = new Promise<void>((r) => (heard = r));
    const t = performance.now();
    await db.execute(sql`select pg_notify('bench_ping', 'x')`); // the bare round trip, as a baseline
    await got;
    notifyTrips.push(performance.now() - t);
  }
  unlisten();

  // 2. Calls/s the policy auto-approves, against whoami on the same transport.
  await db.transaction((tx) => setPolicyAsOwner(tx, { actor, policy: { rules: [{ id: "bench-all", effect: "auto_approve" }] } }));
  const ask = async () => {
    const out = await callTool("ask_approval", { action: "refund", summary: "Refund?", amount: 5, wait_seconds: 0 });
    if (out.status !== "approved") throw new Error(`not auto-approved: ${JSON.stringify(out)}`);
  };
  // The server's policy cache forgets on a NOTIFY from this process, which lands a moment after the commit.
  for (let tries = 0; ; tries++) {
    const out = await callTool("ask_approval", { action: "refund", summary: "Refund?", amount: 5, wait_seconds: 0 });
    if (out.status === "approved") break;
    if (tries === 100) throw new Error("the server never saw the new policy");
    await new Promise((r) => setTimeout(r, 100));
  }
  for (let i = 0; i < 200; i++) await ask(); // warm-up
  const dbName = new URL(database.url).pathname.slice(1);
  const serverPid = server.child.pid!;
  const auto = await serverCpuPerCall(serverPid, dbName, () => closedLoop(CLIENTS, SECONDS, ask));
  const whoami = await serverCpuPerCall(serverPid, dbName, () => closedLoop(CLIENTS, SECONDS, async () => void (await callTool("whoami", {}))));

  server.child.kill("SIGTERM");
  await close();
  console.log(
    JSON.stringify(
      {
        bench: "approvals",
        decision_to_answer: {
          requests: latencies.domain_call.length + latencies.dashboard_post.length,
          all: percentiles([...latencies.domain_call, ...latencies.dashboard_post]),
          after_domain_call: { ...percentiles(latencies.domain_call), decision_itself: percentiles(decisionTimes.domain_call) },
          after_dashboard_post: { ...percentiles(latencies.dashboard_post), decision_itself: percentiles(decisionTimes.dashboard_post) },
        },
        baselines: { mcp_request_status: percentiles(plainCalls), listen_notify_round_trip: percentiles(notifyTrips) },
        auto_approved_ask_approval: auto,
        baseline_whoami: whoami,
        ratio_to_whoami: Number((auto.rps / whoami.rps).toFixed(2)),
        targets: { decision_to_answer_p99_ms: 100, auto_approved_rps: 500 },
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
