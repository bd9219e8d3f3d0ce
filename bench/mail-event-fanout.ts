/**
 * The webhook fan-out's cost on the mail path (issue 18, design §2.9): emitMailEvent now writes the event, its
 * deliveries and their jobs in one statement. Each call here is one transaction with one event, as a stored
 * inbound message has, from 8 concurrent writers. Measured in the same run, interleaved call by call:
 * - `before`: the statement as it was, a plain insert into mail_events (the baseline);
 * - `no_webhooks`: emitMailEvent for a project without webhooks (what every inbound mail pays now; on PGlite the
 *   presence check of lib/mail/webhooks/webhook-presence.ts lets it write the plain row);
 * - `no_webhooks_fused`: the fused event-and-fan-out statement for that project, as emitMailEvent runs it when the
 *   presence check is not used (always on PostgreSQL): the A/B of that check;
 * - `two_webhooks`: emitMailEvent for a project with 2 matching webhooks among 6 (2 deliveries + 2 jobs an event).
 * PostgreSQL by default; BENCH_DB=pglite for embedded PGlite (1 writer, since PGlite serialises).
 * Run: npx tsx bench/mail-event-fanout.ts   (SECONDS=5 per leg)
 * Measured 2026-12-02 06:41 on the 2-vCPU VM at load average 18 (other suites running), legs interleaved:
 * PostgreSQL, 8 writers: p50 17.8 ms before, 18.4 no_webhooks, 18.1 fused, 19.8 two_webhooks (throughput ratios to
 * before 0.98, 0.99, 0.94): the commit dominates, the fan-out costs ~2% with no webhook and ~6% with two.
 * PGlite, 1 writer: p50 4.3 ms before, 2.7 no_webhooks (ratio 1.04), 14.5 fused (0.50), 18.7 two_webhooks (0.38):
 * PGlite plans each statement afresh, hence the presence check there.
 */
import { count, eq } from "drizzle-orm";
import { mailWebhookDeliveries, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { freshDatabase } from "./support/processes";
import { closedLoop, percentiles } from "./support/load";

const SECONDS = Number(process.env.SECONDS ?? 5);
const PGLITE = process.env.BENCH_DB === "pglite";
const WRITERS = PGLITE ? 1 : 8;

async function main() {
  const fresh = PGLITE ? null : await freshDatabase("brynth_bench_fanout");
  if (fresh) {
    process.env.DATABASE_URL = fresh.url;
    process.env.DATABASE_POOL_SIZE = "10";
  } else {
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = `/tmp/brynth-bench-fanout-${Date.now()}`;
  }
  process.env.DATA_DIR ??= "/tmp/brynth-bench";
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { migrateDb } = await import("@/lib/db/migrate");
  const { statement } = await import("@/lib/db/statement");
  const { newId } = await import("@/lib/ids");
  const { emitMailEvent } = await import("@/lib/mail/events/emit-mail-event");
  const { insertMailEvent } = await import("@/lib/mail/events/statements");
  const { createWebhook } = await import("@/lib/mail/webhooks/create-webhook");
  const { createFirstOwner } = await import("@/lib/owners/create-owner");
  const { createProject } = await import("@/lib/projects/create-project");
  await migrateDb();
  const db = await getDb();
  const { owner, project: quiet } = await db.transaction((tx) =>
    createFirstOwner(tx, { email: "b@example.com", password: "bench-password", projectName: "quiet" }),
  );
  const hooked = await db.transaction((tx) => createProject(tx, { ownerId: owner.id, ownerEmail: owner.email, name: "hooked" }));
  const ownerOf = (projectId: string) => ({
    type: "owner" as const,
    projectId,
    id: owner.id,
    keyId: null,
    scopes: [],
    agent: null,
    platform: null,
    via: "dashboard" as const,
  });
  const hooks: Array<{ eventTypes: Array<"message.received" | "message.sent" | "domain.verified">; inboxIds?: string[] }> = [
    { eventTypes: ["message.received"] },
    { eventTypes: ["message.received", "message.sent"] },
    { eventTypes: ["message.sent"] },
    { eventTypes: ["domain.verified"] },
    { eventTypes: ["message.received"], inboxIds: ["mbx_elsewhere"] },
    { eventTypes: ["message.received"] },
  ];
  for (const [i, h] of hooks.entries()) {
    await db.transaction(async (tx) => {
      // The inbox filter names a mailbox id directly (the bench has no mailboxes): written after the create.
      const { webhook } = await createWebhook(tx, { actor: ownerOf(hooked.id), webhook: { url: `https://h${i}.example.com/`, eventTypes: h.eventTypes } });
      if (h.inboxIds) await tx.update(mailWebhooks).set({ inboxIds: h.inboxIds }).where(eq(mailWebhooks.id, webhook.id));
      if (i === 5) await tx.update(mailWebhooks).set({ enabled: false }).where(eq(mailWebhooks.id, webhook.id));
    });
  }

  // The statement before the fan-out, verbatim.
  const before = statement<never>(`
    insert into mail_events (id, project_id, mailbox_id, type, message_id, thread_id, draft_id, summary)
    values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`);
  const summary = { from: "ann@sender.example", to: ["box@brynth.localhost"], subject: "Hello", preview: "Hi there", labels: ["received", "unread"] };
  const legs = {
    before: () =>
      db.transaction(async (tx) => {
        await before(tx, newId("mev"), quiet.id, "mbx_bench", "message.received", null, null, null, JSON.stringify(summary));
      }),
    no_webhooks: () =>
      db.transaction(async (tx) => {
        await emitMailEvent(tx, { projectId: quiet.id, mailboxId: "mbx_bench", type: "message.received", messageId: null, threadId: null, summary });
      }),
    no_webhooks_fused: () =>
      db.transaction(async (tx) => {
        await insertMailEvent(tx, newId("mev"), quiet.id, "mbx_bench", "message.received", null, null, null, JSON.stringify(summary), "mail.webhook", 9);
      }),
    two_webhooks: () =>
      db.transaction(async (tx) => {
        await emitMailEvent(tx, { projectId: hooked.id, mailboxId: "mbx_bench", type: "message.received", messageId: null, threadId: null, summary });
      }),
  };
  // Warm-up: prepared statements, pools.
  for (const leg of Object.values(legs)) for (let i = 0; i < 50; i++) await leg();

  // Interleaved, not leg after leg: call i runs leg i mod 4, so a change in the machine's load (other processes
  // share its two cores) weighs on every leg alike. Each leg's latencies are its own.
  const names = Object.keys(legs) as Array<keyof typeof legs>;
  const latencies: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  let next = 0;
  const run = await closedLoop(WRITERS, SECONDS * names.length, async () => {
    const name = names[next++ % names.length];
    const t = performance.now();
    await legs[name]();
    latencies[name].push(performance.now() - t);
  });
  if (run.errors) throw new Error(`${run.errors} errors`);
  const stats = (name: string) => {
    const l = latencies[name];
    const mean = l.reduce((a, b) => a + b, 0) / l.length;
    return { calls: l.length, mean_ms: Number(mean.toFixed(2)), ...percentiles(l) };
  };
  const legStats = Object.fromEntries(names.map((n) => [n, stats(n)]));
  const [{ n: deliveries }] = await db.select({ n: count() }).from(mailWebhookDeliveries);
  const ratio = (name: string) => Number((legStats.before.mean_ms / legStats[name].mean_ms).toFixed(2));
  console.log(
    JSON.stringify(
      {
        database: PGLITE ? "pglite" : "postgres",
        writers: WRITERS,
        seconds: SECONDS * names.length,
        events_per_second_all_legs: run.rps,
        legs: legStats,
        // Mean latency of the baseline over the leg's: the share of the baseline's throughput the leg would reach.
        throughput_ratio_no_webhooks_to_before: ratio("no_webhooks"),
        throughput_ratio_no_webhooks_fused_to_before: ratio("no_webhooks_fused"),
        throughput_ratio_two_webhooks_to_before: ratio("two_webhooks"),
        deliveries_written: deliveries,
      },
      null,
      2,
    ),
  );
  await closeDb();
  await fresh?.drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
