/**
 * Scheduled sends (issue 17 "Benchmarks"): DRAFTS drafts created over REST (create_draft with `sendAt`), all due in
 * the same second, with two Brynth instances (each its own process and job runner) on one Postgres. Reports how long
 * after the due time the last one reached the relay sink, the lateness of each (arrival − send_at, p50/p99), and
 * duplicates (a subject seen twice) and misses. Targets: all sent within 10 s, p99 lateness ≤ 2 s, 0 duplicates.
 * Run: npx tsx bench/mail-scheduled.ts   (DRAFTS=1000 LEAD_SECONDS=40)
 * Measured 2026-12-02 on a quiet 2-vCPU VM, Postgres: 1,000 drafts (created in 5.9 s), all at the sink 20.5 s after
 * their time, lateness p50 13.5 s, p99 20.4 s, 0 duplicates, 0 missing. Throughput bounds it (about 50 scheduled
 * sends delivered a second, as bench/mail-send.ts), and the delivery jobs queue behind the due send_draft jobs.
 * Idle machine, 2026-12-03: 9.7 s to send all 1,000 (p50 7.5 s, p99 9.7 s late) at 00:24; 7.4 s (p50 5.9, p99 7.4)
 * at 01:14 after the send path's statements (bench/mail-send.ts); 0 duplicates, 0 missing both times. A p99 of 2 s
 * would need 500 sends a second from two instances on two cores: the send path does about 150.
 * 2026-12-03 18:00-18:20, a loaded VM (load 3-7), same-run A/B in their commits: deliveries now run right after their
 * send (queue-place.ts), so the median draft no longer arrives with the last (p50 at 0.55-0.58 of the time to send
 * all, was 0.77-0.80), and deliveries commit in groups (28 ms of server CPU a send, was 33). The 1,000 took 15-21 s
 * on that machine; the CPU a send takes says about 52-71 sends a second on two idle cores with both instances.
 * 2026-12-05, idle after a CI run, yardstick sha256_64mb_ms 40: all 1,000 sent 16.1 s after their time (p50
 * 9.3 s, p99 16.0 s late), 0 duplicates, 0 missing; 16.8 ms instances + 13.6 ms Postgres CPU a send, 66 sends a
 * second on two idle cores. The same day's A/B of bench/mail-send.ts puts the VM at under half its 2026-12-03 speed.
 */
import { percentiles } from "./support/load";
import { http } from "./support/http";
import { freshDatabase } from "./support/processes";
import { relaySink } from "./support/relay-sink";
import { startSendServer } from "./support/send-server-process";
import { machineSpeed } from "./support/machine-speed";
import { postgresCpuMs, processCpuMs } from "./support/cpu-time";

const DRAFTS = Number(process.env.DRAFTS ?? 1000);
/** Time to create every draft before they fall due. */
const LEAD_SECONDS = Number(process.env.LEAD_SECONDS ?? 40);

async function main() {
  // Taken before any load: the yardstick beside this run's figures.
  const machine = machineSpeed();
  const relay = await relaySink();
  const database = await freshDatabase("brynth_bench_scheduled");
  // One instance first (it migrates and seeds the database), then the second on the same database.
  const a = await startSendServer({ databaseUrl: database.url, relayPort: relay.port });
  const b = await startSendServer({ databaseUrl: database.url, relayPort: relay.port, seed: false });
  const { base, key, inbox } = a;
  const dueAt = new Date(Date.now() + LEAD_SECONDS * 1000);
  dueAt.setMilliseconds(0);
  const due = dueAt.getTime();

  const arrivals = new Map<string, number[]>();
  const subjects = Array.from({ length: DRAFTS }, (_, i) => `scheduled ${i}`);
  for (const s of subjects) relay.arrival(s).then(() => arrivals.set(s, [...(arrivals.get(s) ?? []), Date.now()]));
  let next = 0;
  const created0 = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < DRAFTS) {
        const subject = subjects[next++];
        const r = await http(
          "POST",
          `${base}/api/v1/inboxes/${inbox}/drafts`,
          JSON.stringify({ to: ["due@relay.example"], subject, text: `Due at ${dueAt.toISOString()}`, send_at: dueAt.toISOString() }),
          { "content-type": "application/json", authorization: `Bearer ${key}` },
        );
        if (r.status !== 200) throw new Error(`create_draft failed: ${r.status} ${r.body}`);
      }
    }),
  );
  const createSeconds = (performance.now() - created0) / 1000;
  if (Date.now() >= due) throw new Error(`creating ${DRAFTS} drafts took ${createSeconds.toFixed(1)} s, past the due time: raise LEAD_SECONDS`);
  // CPU from here to the last arrival is the sends' (both instances and their Postgres backends): unlike the
  // lateness it hardly depends on what else the machine runs, so it tells what two idle cores could do.
  const databaseName = new URL(database.url).pathname.slice(1);
  const instancesCpu = () => processCpuMs(a.child.pid ?? 0) + processCpuMs(b.child.pid ?? 0);
  const cpu0 = { instances: instancesCpu(), postgres: postgresCpuMs(databaseName) };
  await relay.reach(DRAFTS, due - Date.now() + 60_000);
  const cpu = { instances: (instancesCpu() - cpu0.instances) / DRAFTS, postgres: (postgresCpuMs(databaseName) - cpu0.postgres) / DRAFTS };
  // Anything sent twice arrives within moments of the first copy.
  await new Promise((r) => setTimeout(r, 3000));
  const lateness = [...arrivals.values()].map((times) => (times[0] - due) / 1000);
  const duplicates = subjects.reduce((n, s) => n + Math.max(0, relay.count(s) - 1), 0);
  console.log(
    JSON.stringify(
      {
        machine,
        database: "postgres",
        instances: 2,
        drafts: DRAFTS,
        create_draft_seconds: Number(createSeconds.toFixed(1)),
        sent: arrivals.size,
        missing: DRAFTS - arrivals.size,
        duplicates,
        all_sent_within_seconds: lateness.length ? Number(Math.max(...lateness).toFixed(2)) : null,
        lateness_seconds: Object.fromEntries(
          Object.entries(percentiles(lateness.map((s) => s * 1000))).map(([k, v]) => [
            k.replace("_ms", "_s"),
            v === null ? null : Number((v / 1000).toFixed(2)),
          ]),
        ),
        server_cpu_ms_per_send: { instances: Number(cpu.instances.toFixed(2)), postgres: Number(cpu.postgres.toFixed(2)) },
        implied_sends_per_second_on_2_idle_cores: Math.round(2000 / (cpu.instances + cpu.postgres)),
        targets: { all_sent_within_seconds: 10, p99_lateness_seconds: 2, duplicates: 0 },
      },
      null,
      2,
    ),
  );
  a.child.kill("SIGTERM");
  b.child.kill("SIGTERM");
  await relay.close();
  await database.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
