import { spawn, type ChildProcess } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { mailWebhookDeliveries, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { JobRunner } from "@/lib/jobs/job-runner";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { envSettings } from "@/lib/testing/env-settings";
import { emitBareMailEvent } from "@/lib/testing/mail-events";
import { seedProject } from "@/lib/testing/seed";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

/**
 * Webhook delivery across processes on one PostgreSQL (design §4 C "Real parts"): two runners never send one
 * delivery twice, and an instance killed with SIGKILL while it fans events out loses none of those it committed: its
 * claims come back when their lease runs out (nothing in the test touches them), and a restarted instance sends them.
 */
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
const KIND = webhookDeliveryJob.kind;
const settings = envSettings("OUTBOUND_");
let receiver: WebhookReceiver;
const children: ChildProcess[] = [];
const runners: JobRunner[] = [];
const pools: Array<{ end: (o: { timeout: number }) => Promise<void> }> = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await Promise.all(runners.map((r) => r.stop()));
  await Promise.all(pools.map((p) => p.end({ timeout: 5 })));
  settings.restore();
  await receiver.close();
});

/** A project with one webhook on a fresh receiver path; returns what an instance needs to emit for it. */
async function projectWithHook(name: string) {
  const seeded = await seedProject({ name });
  const db = await getDb();
  const path = `/${name.toLowerCase().replace(/\W+/g, "-")}`;
  const { webhook } = await createWebhook(db, { actor: seeded.actor, webhook: { url: `http://${receiver.host}${path}`, eventTypes: ["message.received"] } });
  receiver.endpoint(path, { secrets: [openWebhookSecret(webhook)] });
  const mailbox = await defaultMailbox(db, seeded.project.id);
  return { seeded, webhook, path, mailbox };
}

/** Starts lib/testing/webhook-instance.ts on this test's database; `ready` resolves once it prints `ready`. */
function startInstance(env: Record<string, string>, onLine: (line: string, child: ChildProcess) => void = () => {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/testing/webhook-instance.ts"], {
    env: { ...process.env, NODE_ENV: "test", OUTBOUND_ALLOW_HOSTS: receiver.host, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "ready") resolve();
        onLine(line, child);
      }
    });
    void exited.then(() => reject(new Error(`instance exited with ${child.exitCode ?? child.signalCode}`)));
  });
  return { child, ready, exited };
}

describe.runIf(onPostgres)("webhook deliveries across instances (PostgreSQL)", () => {
  it("two runners on one database send each of 300 deliveries exactly once, both taking part", { timeout: 90_000 }, async () => {
    const { seeded, path, mailbox } = await projectWithHook("Two runners");
    const db = await getDb();
    const { default: postgres } = await import("postgres");
    const { openPostgres } = await import("@/lib/db/postgres-driver");
    const pool = postgres(process.env.DATABASE_URL ?? "", { max: 10, onnotice: () => {} });
    pools.push(pool);
    const finished = [0, 0];
    for (const [i, handle] of [db, openPostgres(pool)].entries()) {
      // A delivered attempt commits with its job in one db.transaction: counted per runner (patched in place, as
      // lib/db registered the handle itself).
      const transaction = handle.transaction.bind(handle);
      handle.transaction = ((fn: Parameters<typeof transaction>[0]) => {
        finished[i]++;
        return transaction(fn);
      }) as typeof handle.transaction;
      runners.push(new JobRunner(handle, { concurrency: 2, pollMs: 200, lanes: [{ kinds: [KIND], concurrency: 8 }] }));
    }
    // Every event is committed before either runner starts, so both find a full table to share.
    const ids: string[] = [];
    for (let k = 0; k < 300; k++) {
      ids.push(await emitBareMailEvent({ projectId: seeded.project.id, mailboxId: mailbox.id }, { from: "x@example.org", subject: `E${k}` }));
    }
    await Promise.all(runners.map((r) => r.start()));
    await receiver.waitFor(300, path, 60_000);
    await expect
      .poll(async () => (await db.select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.status, "delivered"))).length, { timeout: 20_000 })
      .toBe(300);
    // A moment for any duplicate to show up, then: each webhook-id exactly once, every signature good.
    await new Promise((r) => setTimeout(r, 500));
    const got = receiver.at(path);
    expect(got).toHaveLength(300);
    expect(new Set(got.map((r) => r.id))).toEqual(new Set(ids));
    expect(got.every((r) => r.verifiedBy.length === 1)).toBe(true);
    expect(finished[0]).toBeGreaterThan(0);
    expect(finished[1]).toBeGreaterThan(0);
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });

  it("delivers every committed event at least once after a kill -9 during fan-out and a restart", { timeout: 120_000 }, async () => {
    const { seeded, webhook, path, mailbox } = await projectWithHook("Crash");
    // The first 8 requests hang, so the killed instance certainly dies holding claims in flight; then 200s.
    receiver.answer(path, [...Array.from({ length: 8 }, () => "hang" as const), 200]);
    // A 4-second lease, renewed while the instance lives: the dead one's claims come back by themselves, soon.
    const env = { PROJECT_ID: seeded.project.id, MAILBOX_ID: mailbox.id, LEASE_SECONDS: "4" };
    let killed = false;
    const first = startInstance({ ...env, EMIT_EVENTS: "100000" }, (line, child) => {
      // Mid-stream: events are being written and fanned out, and deliveries (8 of them hanging) are in flight.
      const k = /^emitted (\d+)$/.exec(line);
      if (!killed && k && Number(k[1]) >= 150 && receiver.at(path).length >= 8) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    await first.ready;
    await first.exited;
    expect(first.child.signalCode).toBe("SIGKILL");
    receiver.releaseHanging();

    const db = await getDb();
    const committed = await db.select({ id: mailEvents.id }).from(mailEvents).where(eq(mailEvents.projectId, seeded.project.id));
    // At least what it said it committed; a commit whose line never got out counts too.
    expect(committed.length).toBeGreaterThanOrEqual(150);
    // Every committed event has its delivery and job: they were written in the event's own transaction.
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.webhookId, webhook.id));
    expect(n).toBe(committed.length);
    // The dead instance still holds claims: nothing but their lease running out gives them back. Most of the 8 hanging
    // ones; on a loaded machine a hanging request may have timed out into a retry before the kill.
    const [{ held }] = await db
      .select({ held: sql<number>`count(*)::int` })
      .from(jobs)
      .where(and(eq(jobs.kind, KIND), eq(jobs.status, "running"), eq(jobs.projectId, seeded.project.id)));
    expect(held).toBeGreaterThan(0);

    await startInstance(env).ready;
    await expect.poll(async () => committed.filter((e) => !receiver.ids.has(e.id)).length, { timeout: 60_000, interval: 250 }).toBe(0);
    expect(receiver.at(path).every((r) => r.verifiedBy.length === 1)).toBe(true);
    await expect
      .poll(
        async () =>
          (
            await db
              .select()
              .from(mailWebhookDeliveries)
              .where(and(eq(mailWebhookDeliveries.webhookId, webhook.id), eq(mailWebhookDeliveries.status, "delivered")))
          ).length,
        { timeout: 60_000, interval: 250 },
      )
      .toBe(committed.length);
    // Nothing was lost; a delivery in flight at the kill may have arrived twice (at least once), never more often.
    expect([...receiver.ids.entries()].filter(([id]) => committed.some((e) => e.id === id)).every(([, count]) => count <= 2)).toBe(true);
    await db.update(mailWebhooks).set({ enabled: false }).where(eq(mailWebhooks.id, webhook.id));
  });
});
