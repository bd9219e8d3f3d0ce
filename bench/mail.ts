/**
 * Mail: inbound 20 KB messages/s over 4 pooled SMTP connections into `email.received` events, and outbound
 * messages/s from email_send through the job runner to a relay sink. Each against a baseline in the same run:
 * nodemailer (same pool, same messages, sending from its own process) into a bare smtp-server that only counts.
 * PostgreSQL. `cpu_ms_per_message` is this process's CPU (the receiving side only).
 * Run: npx tsx bench/mail.ts   (INBOUND=2000 OUTBOUND=1000 to change the counts)
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { sql } from "drizzle-orm";
import { freshDatabase, startProcess } from "./support/processes";

const INBOUND = Number(process.env.INBOUND ?? 2000);
const OUTBOUND = Number(process.env.OUTBOUND ?? 1000);
const CONNECTIONS = 4;
const body = Array.from({ length: 400 }, (_, i) => `Line ${i} of a twenty kilobyte message body, plain ASCII text.`)
  .join("\n")
  .slice(0, 20 * 1024);

/** A bare SMTP server that only counts messages: the baseline's far end, and the outbound relay sink. */
async function countingSink() {
  let count = 0;
  let waiter: { n: number; resolve: () => void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, _session, cb) {
      stream.on("data", () => {});
      stream.on("end", () => {
        count++;
        if (waiter && count >= waiter.n) waiter.resolve();
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.server.address() as AddressInfo).port,
    get count() {
      return count;
    },
    reach: (n: number) => new Promise<void>((resolve) => (count >= n ? resolve() : (waiter = { n, resolve }))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Sends `n` 20 KB messages over CONNECTIONS pooled connections from a separate process (as real senders are). */
async function pump(port: number, n: number, to: string, tag: string) {
  const { match } = await startProcess(
    process.execPath,
    ["--import", "tsx", "bench/support/mail-pump.ts"],
    { ...process.env, PORT: String(port), COUNT: String(n), TO: to, TAG: tag, CONNECTIONS: String(CONNECTIONS) },
    /done (\{.*\})/,
  );
  return JSON.parse(match[1]) as { messages: number; errors: number; seconds: number; per_second: number };
}

async function main() {
  const database = await freshDatabase("brynth_bench_mail");
  process.env.DATABASE_URL = database.url;
  process.env.DATABASE_POOL_SIZE = "20";
  process.env.DATA_DIR ??= `/tmp/brynth-bench-mail-${Date.now()}`;
  process.env.EMAIL_DAILY_LIMIT = String(OUTBOUND * 2);
  process.env.EMAIL_MONTHLY_LIMIT = String(OUTBOUND * 2);
  process.env.LOG_LEVEL = "warn";
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { migrateDb } = await import("@/lib/db/migrate");
  const { createFirstOwner } = await import("@/lib/owners/create-owner");
  const { ownerActor } = await import("@/lib/owner-api/owner-actor");
  const { addSource } = await import("@/lib/sources/add-source");
  const { projectAddress } = await import("@/lib/mail/project-address");
  const { startSmtpListener } = await import("@/lib/mail/inbound/smtp-listener");
  const { sendEmail } = await import("@/lib/mail/outbound/send-email");
  const { closeRelayTransports } = await import("@/lib/mail/outbound/relay-transport");
  const { JobRunner } = await import("@/lib/jobs/job-runner");
  const { resetEnvCache } = await import("@/lib/env");
  const { query } = await import("@/lib/db/statement");
  await migrateDb();
  const db = await getDb();
  const { owner, project } = await db.transaction((tx) => createFirstOwner(tx, { email: "b@example.com", password: "bench-password", projectName: "Bench" }));
  const actor = await db.transaction((tx) => ownerActor(tx, owner, project.id, "dashboard"));
  await db.transaction((tx) => addSource(tx, { actor, type: "email", name: "email" }));
  const address = await projectAddress(db, project.id);

  // Inbound: the real listener (mailauth with a DNS that answers "no record" at once: no network here).
  const noDns = async (name: string) => {
    throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
  const listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: noDns, onError: (e) => console.error(e) });
  const bare = await countingSink();
  await pump(listener.port, 50, address, "warmup");
  await pump(bare.port, 50, "x@bench.example", "warmup");
  const cpuB = process.cpuUsage();
  const inboundBaseline = { ...(await pump(bare.port, INBOUND, "x@bench.example", "base")), cpu_ms_per_message: 0 };
  const cpuBase = process.cpuUsage(cpuB);
  inboundBaseline.cpu_ms_per_message = Number(((cpuBase.user + cpuBase.system) / 1000 / INBOUND).toFixed(2));
  const cpu0 = process.cpuUsage();
  const inbound = await pump(listener.port, INBOUND, address, "in");
  const cpu = process.cpuUsage(cpu0);
  const inboundCpuMs = Number(((cpu.user + cpu.system) / 1000 / INBOUND).toFixed(2));
  const [{ n: eventCount }] = await query<{ n: number }>(
    db,
    sql`select count(*)::int as n from events where type = 'email.received' and project_id = ${project.id}`,
  );

  // Outbound: email_send batches of 50 → mail.deliver jobs → relay sink, with the process's job runner.
  const sink = await countingSink();
  process.env.SMTP_RELAY_URL = `smtp://127.0.0.1:${sink.port}`;
  resetEnvCache();
  const outboundBaseline = await pump(sink.port, OUTBOUND, "y@bench.example", "obase");
  const before = sink.count;
  const runner = new JobRunner(db, { concurrency: 8, pollMs: 200 });
  const t0 = performance.now();
  for (let i = 0; i < OUTBOUND; i += 50) {
    const to = Array.from({ length: Math.min(50, OUTBOUND - i) }, (_, j) => `r${i + j}@bench.example`);
    await db.transaction((tx) => sendEmail(tx, { actor, to, subject: `out ${i}`, text: body, attachments: [], reply_to_inbox: true }));
  }
  const queuedSeconds = (performance.now() - t0) / 1000;
  await runner.start();
  await sink.reach(before + OUTBOUND);
  const outboundSeconds = (performance.now() - t0) / 1000;
  await runner.stop();

  console.log(
    JSON.stringify(
      {
        database: "postgres",
        message_bytes: Buffer.byteLength(body),
        inbound: {
          smtp_connections: CONNECTIONS,
          brynth: { ...inbound, events: eventCount, cpu_ms_per_message: inboundCpuMs },
          baseline_bare_smtp_server: inboundBaseline,
          ratio: Number((inbound.per_second / inboundBaseline.per_second).toFixed(2)),
        },
        outbound: {
          job_concurrency: 8,
          brynth: {
            messages: OUTBOUND,
            email_send_seconds: Number(queuedSeconds.toFixed(2)),
            seconds_until_all_at_sink: Number(outboundSeconds.toFixed(2)),
            per_second: Math.round(OUTBOUND / outboundSeconds),
          },
          baseline_nodemailer_pool_to_sink: outboundBaseline,
          ratio: Number((OUTBOUND / outboundSeconds / outboundBaseline.per_second).toFixed(2)),
        },
      },
      null,
      2,
    ),
  );
  closeRelayTransports();
  await listener.close();
  await bare.close();
  await sink.close();
  await closeDb();
  await database.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
