/**
 * Inbound threaded mail: 20 KB messages over 4 pooled SMTP connections into 10 mailboxes, half of them replies
 * (quoted Gmail-style) and a fifth of those sent before their parent, through the whole inbound path — parsing,
 * SPF/DKIM/DMARC, reply extraction, categorisation, threading (reverse adoption, subject check), thread summary,
 * tsvector, mail_events. Against a baseline in the same run: the same path with the same number of messages and no
 * replies ("plain"). Threading correctness: the share of messages found in the thread they belong to.
 * A reply can only join a parent that is already stored, so the run has two rounds: round 1 sends the early
 * replies and the parents of the in-order replies, round 2 the early replies' parents and the in-order replies
 * (within a round, every message is queued at once on the 4 connections).
 * Run: npx tsx bench/mail-threaded.ts   (THREADED=2000 to change the count; BENCH_DB=pglite for embedded PGlite)
 * Measured 2026-12-01 on a 2-vCPU VM at load average about 3, Postgres: 74 msg/s threaded (8.0 ms CPU a message),
 * threading 100 %, against 64 msg/s (9.6 ms) for the plain path in the same run.
 * Measured 2026-12-02 at load average 10-12 (other test suites on the same 2 vCPUs), Postgres, A/B alternated with
 * the path before that day's changes (hand-written inbound statements; mailparser over the header block only for
 * one-part plain text): threaded 5.1-5.6 ms CPU a message against 6.6 ms before, plain 5.6-5.7 against 5.8-7.9;
 * 46-49 msg/s threaded, 55-56 msg/s plain (ratio 0.82-0.89), threading 100 %. Throughput at that load follows the
 * share of CPU the server gets, not its own cost: the A side ran 46-62 msg/s. Per message, in-process: parsing
 * 0.2-0.4 ms, SPF/DKIM/DMARC about 0.5, reply extraction 0.2-0.6 (email-reply-parser on 60 lines); the rest goes to
 * the database driver (20 KB text, extracted text and event payload), the ledger and event writes, and the blob
 * store (open, write, close and rename on the thread pool for every blob; its mkdir is now made once a directory).
 * Quiet machine, 2026-12-02 01:15 (load about 2), Postgres: 116 msg/s threaded (4.62 ms server CPU a message),
 * threading 100 %, plain 114 msg/s (4.89 ms), ratio 1.02. The server then uses about half a core: the bench's own
 * SMTP clients (about 3.4 ms a message) and Postgres (the 20 KB tsvector, inserts, WAL) share the two cores.
 * Idle machine, 2026-12-03 00:55 (nothing else running), messages composed before the clock: 194 msg/s threaded,
 * 2.85 ms server CPU and 4.51 ms Postgres CPU a message, threading 100 %; plain 188 msg/s (3.10 + 4.55 ms); ratio
 * 1.03. Postgres is the larger cost, and the stored search vector most of it: the same run with the `search` column
 * dropped gave 246 msg/s and 2.49 ms Postgres CPU a message (to_tsvector over 20 KB is about 2.2 ms). GIN
 * maintenance (index dropped: no change), TOAST compression (lz4 instead of pglz: 4.58 ms) and commit fsyncs
 * (synchronous_commit off: 200 msg/s) are not what bounds it; 8 connections instead of 4 gave 218 msg/s.
 * 2026-12-05, idle after a CI run, yardstick sha256_64mb_ms 39-40: 96-100 msg/s threaded (5.8 ms server and
 * 9.0-9.5 ms Postgres CPU a message), ratio 1.03, threading 100 %. Same-run A/B, alternated twice, against 2d0b99c
 * (the code of the 194 msg/s above): it made 98-105 msg/s at 5.5-5.8 + 8.7-9.6 ms. The VM did half the work a second
 * it did on 2026-12-03; the code costs within 8 % of what it did then.
 * 2026-12-05 evening, idle, yardstick 38.5-41.4: the intake's check that each recipient mailbox is still live (a row
 * held FOR SHARE per message, be04333), A/B alternated twice against be04333^: head 101-102 msg/s threaded at
 * 5.58-5.75 + 8.51-8.85 ms CPU a message, base 101-104 at 5.48-5.59 + 8.57-8.96; ratio 1.03-1.09, threading 100 %.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { postgresCpuMs } from "./support/cpu-time";
import { freshDatabase, startProcess } from "./support/processes";
import { machineSpeed } from "./support/machine-speed";

const N = Number(process.env.THREADED ?? 2000);
const MAILBOXES = 10;
const CONNECTIONS = 4;
const PGLITE = process.env.BENCH_DB === "pglite";

interface Planned {
  to: string;
  subject: string;
  messageId: string;
  inReplyTo?: string;
  kind: "root" | "reply";
}

const tmp = `/tmp/brynth-bench-threaded-${Date.now()}`;

/** Sends the planned messages from a separate process over CONNECTIONS pooled connections. */
async function pump(port: number, planned: Planned[], tag: string) {
  const file = `${tmp}/${tag}.json`;
  writeFileSync(file, JSON.stringify(planned));
  const { match } = await startProcess(
    process.execPath,
    ["--import", "tsx", "bench/support/mail-thread-pump.ts"],
    { ...process.env, PORT: String(port), MESSAGES_FILE: file, CONNECTIONS: String(CONNECTIONS) },
    /done (\{.*\})/,
  );
  return JSON.parse(match[1]) as { messages: number; errors: number; seconds: number; per_second: number };
}

/** `n` messages that start conversations, spread over the mailboxes. */
const roots = (addresses: string[], n: number, tag: string): Planned[] =>
  Array.from({ length: n }, (_, i) => ({
    to: addresses[i % addresses.length],
    subject: `${tag} topic ${i}`,
    messageId: `<${tag}-${i}@bench.example>`,
    kind: "root",
  }));

/** Interleaves two lists, so neither kind arrives as a block. */
const interleave = <T>(a: T[], b: T[]) =>
  Array.from({ length: Math.max(a.length, b.length) }, (_, i) => [a[i], b[i]])
    .flat()
    .filter((x): x is T => !!x);

async function main() {
  // Taken before any load: the yardstick beside this run's figures.
  const machine = machineSpeed();
  mkdirSync(tmp, { recursive: true });
  process.env.DATA_DIR ??= tmp;
  process.env.LOG_LEVEL = "warn";
  let drop = async () => {};
  // The Postgres backends' CPU (PGlite runs inside this process, in its CPU already).
  let pgCpu = () => 0;
  if (PGLITE) delete process.env.DATABASE_URL;
  else {
    const database = await freshDatabase("brynth_bench_threaded");
    const name = new URL(database.url).pathname.slice(1);
    pgCpu = () => postgresCpuMs(name);
    process.env.DATABASE_URL = database.url;
    process.env.DATABASE_POOL_SIZE = "20";
    drop = database.drop;
  }
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { migrateDb } = await import("@/lib/db/migrate");
  const { createFirstOwner } = await import("@/lib/owners/create-owner");
  const { ensureDefaultDomain } = await import("@/lib/mail/domains/default-domain");
  const { mailboxes } = await import("@/lib/db/schema/mail");
  const { newId } = await import("@/lib/ids");
  const { startSmtpListener } = await import("@/lib/mail/inbound/smtp-listener");
  const { query } = await import("@/lib/db/statement");
  await migrateDb();
  const db = await getDb();
  const { project } = await db.transaction((tx) => createFirstOwner(tx, { email: "b@example.com", password: "bench-password", projectName: "Bench" }));
  const domain = await ensureDefaultDomain(db);
  const addresses = Array.from({ length: MAILBOXES }, (_, i) => `box${i}@${domain.domain}`);
  await db
    .insert(mailboxes)
    .values(addresses.map((address, i) => ({ id: newId("mbx"), projectId: project.id, domainId: domain.id, localPart: `box${i}`, address })));

  // The senders' SPF passes (no network here: a DNS that knows only that record), so mail is categorised normal.
  const resolver = async (name: string, rrtype: string) => {
    if (rrtype === "TXT" && name.toLowerCase() === "bench.example") return [["v=spf1 ip4:127.0.0.1 -all"]];
    throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
  const listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver, onError: (e) => console.error(e) });
  await pump(listener.port, roots(addresses, 100, "warmup"), "warmup");

  // Baseline: the same path, the same count, no replies; half before the threaded rounds and half after, so a
  // drift in the machine's load (or the tables' growth) weighs on both sides alike.
  const plainRuns: Array<Awaited<ReturnType<typeof pump>>> = [];
  const cpuP = process.cpuUsage();
  const pgP = pgCpu();
  plainRuns.push(await pump(listener.port, roots(addresses, N / 2, "plain-a"), "plain-a"));
  let plainCpu = process.cpuUsage(cpuP);
  let plainPg = pgCpu() - pgP;

  // Threaded: N/2 conversations of a root and one reply (same mailbox); a fifth of the replies go first.
  const pairs = roots(addresses, N / 2, "thr").map((root, i) => ({
    root,
    reply: { to: root.to, subject: `Re: ${root.subject}`, messageId: `<thr-reply-${i}@bench.example>`, inReplyTo: root.messageId, kind: "reply" as const },
    early: i % 5 === 0,
  }));
  const round1 = interleave(
    pairs.filter((p) => p.early).map((p) => p.reply),
    pairs.filter((p) => !p.early).map((p) => p.root),
  );
  const round2 = interleave(
    pairs.filter((p) => p.early).map((p) => p.root),
    pairs.filter((p) => !p.early).map((p) => p.reply),
  );
  const cpuT = process.cpuUsage();
  const pgT = pgCpu();
  const r1 = await pump(listener.port, round1, "round1");
  const r2 = await pump(listener.port, round2, "round2");
  const threadedCpu = process.cpuUsage(cpuT);
  const threadedPg = pgCpu() - pgT;
  const seconds = r1.seconds + r2.seconds;
  const cpuP2 = process.cpuUsage();
  const pgP2 = pgCpu();
  plainRuns.push(await pump(listener.port, roots(addresses, N / 2, "plain-b"), "plain-b"));
  const cpuB = process.cpuUsage(cpuP2);
  plainPg += pgCpu() - pgP2;
  plainCpu = { user: plainCpu.user + cpuB.user, system: plainCpu.system + cpuB.system };
  const plainSeconds = plainRuns[0].seconds + plainRuns[1].seconds;
  const plainErrors = plainRuns[0].errors + plainRuns[1].errors;
  const plain = { messages: N, errors: plainErrors, seconds: Number(plainSeconds.toFixed(2)), per_second: Math.round((N - plainErrors) / plainSeconds) };

  // Correct: root and reply share a thread that holds nothing else.
  const rows = await query<{ rfc: string; threadId: string; count: number }>(
    db,
    sql`select m.rfc_message_id as rfc, m.thread_id, t.message_count as count
        from mail_messages m join mail_threads t on t.id = m.thread_id
        where m.project_id = ${project.id} and m.rfc_message_id like 'thr-%'`,
  );
  const byRfc = new Map(rows.map((r) => [r.rfc, r]));
  const bare = (id: string) => id.slice(1, -1);
  let correct = 0;
  for (const p of pairs) {
    const a = byRfc.get(bare(p.root.messageId));
    const b = byRfc.get(bare(p.reply.messageId));
    if (a && b && a.threadId === b.threadId && a.count === 2) correct += 2;
  }
  const [{ events }] = await query<{ events: number }>(db, sql`select count(*)::int as events from mail_events where project_id = ${project.id}`);
  const cpuMs = (u: NodeJS.CpuUsage, n: number) => Number(((u.user + u.system) / 1000 / n).toFixed(2));
  const perSecond = Math.round((N - r1.errors - r2.errors) / seconds);

  console.log(
    JSON.stringify(
      {
        machine,
        database: PGLITE ? "pglite" : "postgres",
        message_bytes: 20 * 1024,
        smtp_connections: CONNECTIONS,
        mailboxes: MAILBOXES,
        threaded: {
          messages: N,
          replies: N / 2,
          replies_before_parent: pairs.filter((p) => p.early).length,
          errors: r1.errors + r2.errors,
          seconds: Number(seconds.toFixed(2)),
          per_second: perSecond,
          rounds: [r1, r2],
          threading_correct_percent: Number(((correct / N) * 100).toFixed(2)),
          mail_events: events,
          cpu_ms_per_message: cpuMs(threadedCpu, N),
          postgres_cpu_ms_per_message: Number((threadedPg / N).toFixed(2)),
        },
        baseline_plain_same_path: {
          ...plain,
          rounds: plainRuns,
          cpu_ms_per_message: cpuMs(plainCpu, N),
          postgres_cpu_ms_per_message: Number((plainPg / N).toFixed(2)),
        },
        ratio: Number((perSecond / plain.per_second).toFixed(2)),
      },
      null,
      2,
    ),
  );
  await listener.close();
  await closeDb();
  await drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
