/**
 * Approval round trip (issue 17 "Benchmarks"): a mailbox in `approval` mode; an agent's send_message over MCP is
 * held as a draft (`approval_required`); the owner approves it with the dashboard's POST (owner REST with a session
 * cookie); measured from the POST's start until the relay sink has the message, over REQUESTS drafts decided one
 * after another (p50/p99). Baseline in the same run: an unheld send_message from the same mailbox, from the call's
 * start until the sink has it (the delivery path alone).
 * Brynth runs as its fast path with a job runner in its own process (bench/support/mail-send-server.ts); Postgres.
 * Run: npx tsx bench/mail-approval.ts   (REQUESTS=200)
 * Measured 2026-12-02 on a quiet 2-vCPU VM, Postgres, 200 drafts: approve POST → sink p50 30.7 ms, p99 50.2 ms (the
 * POST itself p99 31.8 ms); an unheld send → sink p50 26.0, p99 42.5 ms. Target p99 ≤ 500 ms.
 * Idle machine, 2026-12-03 01:14: approve → sink p50 12.6, p99 24.7 ms (the POST p99 15.5); unheld p99 18.6 ms.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentiles } from "./support/load";
import { http } from "./support/http";
import { freshDatabase } from "./support/processes";
import { relaySink } from "./support/relay-sink";
import { BENCH_APP_SECRET, startSendServer } from "./support/send-server-process";
import { machineSpeed } from "./support/machine-speed";

const REQUESTS = Number(process.env.REQUESTS ?? 200);

async function main() {
  // Taken before any load: the yardstick beside this run's figures.
  const machine = machineSpeed();
  const relay = await relaySink();
  const database = await freshDatabase("brynth_bench_mail_approval");
  process.env.DATABASE_URL = database.url;
  process.env.APP_SECRET = BENCH_APP_SECRET;
  process.env.DATA_DIR = mkdtempSync(join(tmpdir(), "brynth-bench-approval-"));
  const { child, base, key, inbox, projectId } = await startSendServer({ databaseUrl: database.url, relayPort: relay.port, dataDir: process.env.DATA_DIR });
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { eq } = await import("drizzle-orm");
  const { mailboxes } = await import("@/lib/db/schema/mail");
  const { mailDrafts } = await import("@/lib/db/schema/mail-send");
  const { owners } = await import("@/lib/db/schema/owners");
  const { startOwnerSession } = await import("@/lib/owners/owner-sessions");
  const { nextAuthSecret } = await import("@/lib/auth/auth-secret");
  const { encode } = await import("next-auth/jwt");
  const db = await getDb();
  const [owner] = await db.select().from(owners).limit(1);
  const session = await startOwnerSession(db, { ownerId: owner.id });
  const cookie = `next-auth.session-token=${await encode({ token: { sub: owner.id, sid: session.id }, secret: nextAuthSecret() })}`;

  const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` };
  const init = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: mcpHeaders,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  });
  const sessionId = init.headers.get("mcp-session-id") ?? "";
  await init.text();
  const send = async (subject: string) => {
    const r = await http(
      "POST",
      `${base}/mcp`,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "send_message", arguments: { inboxId: inbox, to: ["owner-approved@relay.example"], subject, text: `Body of ${subject}` } },
      }),
      { ...mcpHeaders, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    );
    return JSON.parse(JSON.parse(r.body).result.content[0].text) as Record<string, unknown> & { details?: { draft_id: string } };
  };

  // Baseline: unheld sends, call start → at the sink.
  const direct: number[] = [];
  for (let i = 0; i < 20 + REQUESTS / 4; i++) {
    const subject = `direct ${i}`;
    const arrived = relay.arrival(subject);
    const t0 = performance.now();
    await send(subject);
    const took = (await arrived) - t0;
    if (i >= 20) direct.push(took);
  }

  await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, inbox));
  const held: Array<{ subject: string; requestId: string }> = [];
  for (let i = 0; i < REQUESTS + 10; i++) {
    const subject = `held ${i}`;
    const answer = await send(subject);
    if (answer.code !== "approval_required" || !answer.details) throw new Error(`expected approval_required: ${JSON.stringify(answer)}`);
    const [draft] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, answer.details.draft_id));
    held.push({ subject, requestId: draft.approvalRequestId! });
  }
  const roundTrip: number[] = [];
  const decisionOnly: number[] = [];
  for (const [i, h] of held.entries()) {
    const arrived = relay.arrival(h.subject);
    const t0 = performance.now();
    const r = await http("POST", `${base}/api/v1/requests/${h.requestId}/decision`, JSON.stringify({ outcome: "approve" }), {
      cookie,
      "content-type": "application/json",
      "x-brynth-project": projectId,
      origin: base,
    });
    if (r.status !== 200) throw new Error(`decision failed: ${r.status} ${r.body}`);
    const decided = performance.now() - t0;
    const took = (await arrived) - t0;
    // The first ten warm the decision path up.
    if (i >= 10) {
      roundTrip.push(took);
      decisionOnly.push(decided);
    }
  }
  console.log(
    JSON.stringify(
      {
        machine,
        database: "postgres",
        drafts: REQUESTS,
        approve_post_to_sink: percentiles(roundTrip),
        of_which_the_post_itself: percentiles(decisionOnly),
        baseline_unheld_send_to_sink: percentiles(direct),
        target_p99_ms: 500,
      },
      null,
      2,
    ),
  );
  child.kill("SIGTERM");
  await relay.close();
  await closeDb();
  await database.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
