/**
 * Sending (issue 17 "Benchmarks"): send_message over MCP from 10 connections, 3 outside recipients each (one relay
 * SMTP transaction a message), through the job runner to a relay sink: messages/s accepted by the sink and the call
 * latency, against a nodemailer pool sending the same messages (same size, 3 recipients each) to the same sink from
 * its own process, in the same run. Then the idempotent retry storm: 100 concurrent identical sends with one key
 * give exactly one message at the sink, and the replay latency of that key.
 * Brynth runs as its fast path with a job runner in its own process (bench/support/mail-send-server.ts); Postgres.
 * Run: npx tsx bench/mail-send.ts   (SECONDS=10 BYTES=2048 CLIENTS=10 to change the load)
 * Measured 2026-12-02 on a quiet 2-vCPU VM (load about 2), Postgres: 68 calls/s, p50 130 ms, p99 393 ms, 47 messages/s
 * at the sink; server 13.2 ms API + 8.2 ms Postgres CPU a message (sent and delivered): two idle cores would give
 * about 93/s. A nodemailer pool to the same sink: 781/s (ratio 0.06). Retry storm: 1 message at the sink for 100
 * concurrent calls, replay p99 13.8 ms. Before the quota became the last write and the mailbox row stopped being
 * written: 35 calls/s, p99 1,255 ms (the sends queued on those two row locks until each commit).
 * Idle machine, 2026-12-03 00:17, same code: 162 calls/s (p50 55, p99 169 ms), 112 messages/s at the sink (6.3 ms API
 * + 2.4 ms Postgres CPU a call). Then, each step a same-run A/B in its commit: DKIM signed with a key parsed once
 * (nodemailer's signer; mailauth parsed the PEM per message), the delivery path, the outbound INSERTs, the send
 * path's reads and the job runner's claim and enqueue as fixed-text statements. 2026-12-03 01:13: 216 calls/s (p50
 * 42, p99 111 ms), 152 messages/s at the sink (4.1 ms API + 2.6 ms Postgres CPU a call); the nodemailer pool 1,439/s
 * (ratio 0.11); the storm gave 1 message for 100 calls, replay p99 5.9 ms. The p99 is the queue of 10 closed-loop
 * clients on a saturated machine (10 / 216 a second is 46 ms before any work), not a slow path.
 * 2026-12-03 06:08, the same code on a VM running at about two thirds of that speed (the nodemailer pool 976-1,009/s):
 * closed loop 118-129 calls/s (p99 183-209 ms), 90-98 messages/s at the sink, ratio 0.09-0.10; the open-loop phase at
 * RATE=150 (over capacity) 139 calls/s, p99 800 ms, and at RATE=60 (under it) p50 7.6 ms, p99 23.2 ms, the sink
 * keeping pace at 60/s. The p99 target holds below saturation; the throughput is what the two cores bound.
 * 2026-12-05, idle after a CI run, yardstick sha256_64mb_ms 40-41: 91-118 calls/s (p99 235-253 ms), 59-74
 * messages/s at the sink, 6.7-8.8 ms API + 5.9-7.2 ms Postgres CPU a call, the nodemailer pool 780-897/s, ratio 0.08.
 * Same-run A/B, alternated twice, against 5e4bc14 (the code of the 216 calls/s above): 85-92 calls/s at 8.8-9.5 +
 * 7.4-7.8 ms. The VM runs at under half its 2026-12-03 speed; the send path is no slower than it was.
 */
import { serverCpuPerCall } from "./support/cpu-time";
import { closedLoop, openLoop, percentiles } from "./support/load";
import { mcpSession } from "./support/mcp-session";
import { freshDatabase, startProcess } from "./support/processes";
import { relaySink } from "./support/relay-sink";
import { startSendServer } from "./support/send-server-process";
import { machineSpeed } from "./support/machine-speed";

const SECONDS = Number(process.env.SECONDS ?? 10);
const BYTES = Number(process.env.BYTES ?? 2048);
const CLIENTS = Number(process.env.CLIENTS ?? 10);
/** The open-loop phase's offered sends a second: the target's 150 messages/s. */
const RATE = Number(process.env.RATE ?? 150);
const RECIPIENTS = ["ann@relay.example", "bob@relay.example", "cy@relay.example"];
const body = Array.from({ length: 400 }, (_, i) => `Line ${i} of the message body, plain ASCII text.`)
  .join("\n")
  .slice(0, BYTES);

async function nodemailerBaseline(port: number, count: number) {
  const { match } = await startProcess(
    process.execPath,
    ["--import", "tsx", "bench/support/mail-pump.ts"],
    { ...process.env, PORT: String(port), COUNT: String(count), TO: RECIPIENTS.join(", "), TAG: "baseline", CONNECTIONS: "4", BYTES: String(BYTES) },
    /done (\{.*\})/,
  );
  return JSON.parse(match[1]) as { messages: number; errors: number; seconds: number; per_second: number };
}

async function main() {
  // Taken before any load: the yardstick beside this run's figures.
  const machine = machineSpeed();
  const relay = await relaySink();
  const db = await freshDatabase("brynth_bench_send");
  const { child, base, key, inbox } = await startSendServer({ databaseUrl: db.url, relayPort: relay.port });
  const database = new URL(db.url).pathname.slice(1);
  const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => mcpSession(base, key)));
  const send = (w: number, subject: string, extra: Record<string, unknown> = {}) =>
    sessions[w]("send_message", { inboxId: inbox, to: [RECIPIENTS[0]], cc: [RECIPIENTS[1]], bcc: [RECIPIENTS[2]], subject, text: body, ...extra });

  // Warm-up, then the baseline (nodemailer pool → sink) before and after, so a drift in load weighs on both sides.
  for (let i = 0; i < 30; i++) await send(i % CLIENTS, `warmup ${i}`);
  await relay.reach(30, 30_000);
  const baseA = await nodemailerBaseline(relay.port, 1000);

  const before = relay.stats().messages;
  let n = 0;
  const t0 = performance.now();
  const load = await serverCpuPerCall(child.pid!, database, () => closedLoop(CLIENTS, SECONDS, (w) => send(w, `load ${n++}`).then(() => undefined)));
  const accepted = load.requests;
  const reached = await relay.reach(before + accepted, 120_000);
  const atSink = (performance.now() - t0) / 1000;
  const baseB = await nodemailerBaseline(relay.port, 1000);
  const baselinePerSecond = Math.round((baseA.per_second + baseB.per_second) / 2);
  const sinkPerSecond = Math.round(accepted / atSink);

  // At the target's rate rather than flat out: RATE sends a second on a fixed schedule over the same clients, each
  // call's latency taken from its scheduled start, and the sink's pace over the same messages.
  const openBefore = relay.stats().messages;
  const o0 = performance.now();
  const atRate = await serverCpuPerCall(child.pid!, database, () => openLoop(RATE, SECONDS, CLIENTS, (w) => send(w, `rate ${n++}`).then(() => undefined)));
  const openReached = await relay.reach(openBefore + atRate.requests, 120_000);
  const openAtSink = (performance.now() - o0) / 1000;

  // Idempotent retry storm: 100 concurrent identical sends with one key, then replays of that key one at a time.
  const storm = () => send(0, "storm", { idempotencyKey: "storm-1" });
  const stormAnswers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      sessions[i % CLIENTS]("send_message", {
        inboxId: inbox,
        to: [RECIPIENTS[0]],
        cc: [RECIPIENTS[1]],
        bcc: [RECIPIENTS[2]],
        subject: "storm",
        text: body,
        idempotencyKey: "storm-1",
      }),
    ),
  );
  await new Promise((r) => setTimeout(r, 3000));
  const replays: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    await storm();
    replays.push(performance.now() - t);
  }

  console.log(
    JSON.stringify(
      {
        machine,
        database: "postgres",
        message_bytes: BYTES,
        recipients_per_message: RECIPIENTS.length,
        mcp_clients: CLIENTS,
        send_message: {
          ...load,
          all_at_sink: reached,
          seconds_until_all_at_sink: Number(atSink.toFixed(2)),
          sink_messages_per_second: sinkPerSecond,
        },
        send_message_at_target_rate: {
          ...atRate,
          all_at_sink: openReached,
          seconds_until_all_at_sink: Number(openAtSink.toFixed(2)),
          sink_messages_per_second: Math.round(atRate.requests / openAtSink),
        },
        baseline_nodemailer_pool_to_sink: { before: baseA, after: baseB, per_second: baselinePerSecond },
        ratio: Number((sinkPerSecond / baselinePerSecond).toFixed(2)),
        idempotent_storm: {
          concurrent_calls: 100,
          distinct_answers: new Set(stormAnswers).size,
          messages_at_sink: relay.count("storm"),
          replay: percentiles(replays),
        },
      },
      null,
      2,
    ),
  );
  child.kill("SIGTERM");
  await relay.close();
  await db.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
