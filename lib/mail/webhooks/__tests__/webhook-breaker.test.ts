import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { sendTestEvent } from "@/lib/mail/webhooks/send-test-event";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { BREAKER_FAILURES } from "@/lib/mail/webhooks/webhook-breaker";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { webhookLaneFixture } from "@/lib/testing/webhook-lane-fixture";

/**
 * A failing endpoint gets one request at a time (webhook-breaker.ts): its other deliveries wait unattempted, so
 * they hold no slot of the webhook lane, and all go once one succeeds.
 */
const lane = webhookLaneFixture();
const { setup, hook, events, startRunner, deliveriesOf, jobsOf } = lane;

describe("webhook breaker", () => {
  it("sends a failing endpoint one request at a time; the rest wait unattempted while a healthy endpoint gets all", async () => {
    const at = await setup();
    const failing = await hook(at, ["hang"], true);
    const healthy = await hook(at, [200]);
    await events(at, 10);
    const before = Date.now();
    await startRunner();
    // Before: the hanging endpoint's ten took every slot but the ones the healthy endpoint's got in between.
    await lane.receiver.waitFor(10, healthy.path, 5_000);
    await waitFor(async () => lane.receiver.at(failing.path).length === 1, 5_000);
    await new Promise((r) => setTimeout(r, 500));
    const after = Date.now();
    expect(lane.receiver.at(failing.path)).toHaveLength(1);
    // Each waits as long as the endpoint had been failing when it was put back (a minute and a little), and up to
    // half as long again: between these two moments, by the clock read around the run.
    const earliest = before + (before - failing.since);
    const latest = after + 1.5 * (after - failing.since);
    const all = await jobsOf(failing.webhook);
    const waiting = all.filter((j) => j.status === "pending");
    expect(waiting).toHaveLength(9);
    for (const j of waiting) {
      expect(j).toMatchObject({ parked: true, attempts: 0 });
      expect(j.lastError).toContain("one request at a time");
      expect(j.runAt.getTime()).toBeGreaterThanOrEqual(earliest);
      expect(j.runAt.getTime()).toBeLessThanOrEqual(latest);
    }
    // The deliveries say when they go next; none was attempted (the probe's is still in flight).
    const deliveries = await deliveriesOf(failing.webhook);
    expect(deliveries.every((d) => d.status === "pending" && d.attempts === 0)).toBe(true);
    const told = deliveries.filter((d) => d.nextAttemptAt && d.nextAttemptAt.getTime() >= earliest && d.nextAttemptAt.getTime() <= latest);
    expect(told).toHaveLength(9);
  }, 30_000);

  it("lets every waiting delivery go when the probe succeeds, retries included", async () => {
    const at = await setup();
    const failing = await hook(at, [500, 200], true);
    await events(at, 6);
    await startRunner();
    // The first request fails (500): one more failure, and the other five wait.
    await waitFor(async () => (await jobsOf(failing.webhook)).filter((j) => j.parked).length === 6, 10_000);
    expect(lane.receiver.at(failing.path)).toHaveLength(1);
    // The probe's retry (as if its 5 s had passed and its turn were over) succeeds: all go now.
    const db = await getDb();
    await db.update(mailWebhooks).set({ probeUntil: sql`now() - interval '1 second'` }).where(eq(mailWebhooks.id, failing.webhook.id));
    const [retry] = (await jobsOf(failing.webhook)).filter((j) => j.attempts === 1);
    await db.update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(eq(jobs.id, retry.id));
    await lane.receiver.waitFor(7, failing.path, 10_000);
    await waitFor(async () => (await deliveriesOf(failing.webhook)).every((d) => d.status === "delivered"), 10_000);
    expect(new Set(lane.receiver.at(failing.path).map((d) => d.id)).size).toBe(6);
    const [row] = await db.select().from(mailWebhooks).where(eq(mailWebhooks.id, failing.webhook.id));
    expect(row.consecutiveFailures).toBe(0);
  }, 30_000);

  it("sends the waiting deliveries to a new URL at once: another endpoint starts with no failures", async () => {
    const at = await setup();
    const failing = await hook(at, ["hang"], true);
    await events(at, 4);
    await startRunner();
    await waitFor(async () => (await jobsOf(failing.webhook)).filter((j) => j.parked).length === 3, 10_000);
    const path = `/breaker-moved-${Date.now()}`;
    lane.receiver.endpoint(path, { secrets: [openWebhookSecret(failing.webhook)], answers: [200] });
    const db = await getDb();
    const moved = await db.transaction((tx) =>
      updateWebhook(tx, { actor: at.seeded.actor, webhookId: failing.webhook.id, changes: { url: `http://${lane.receiver.host}${path}` } }),
    );
    expect(moved.consecutiveFailures).toBe(0);
    // The three that waited (the probe still hangs on the old URL until its deadline).
    await lane.receiver.waitFor(3, path, 5_000);
  }, 30_000);

  it("gives the turn to one of many deliveries racing for it", async () => {
    const at = await setup();
    const failing = await hook(at, ["hang"], true);
    await events(at, 16);
    lane.endpointSlots(16);
    await startRunner(16);
    await waitFor(async () => (await jobsOf(failing.webhook)).filter((j) => j.parked).length === 15, 10_000);
    await lane.receiver.waitFor(1, failing.path, 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(lane.receiver.at(failing.path)).toHaveLength(1);
  }, 30_000);

  it("sends an owner's test event to a failing endpoint at once, turn or not", async () => {
    const at = await setup();
    const failing = await hook(at, ["hang", 200], true);
    await events(at, 1);
    await startRunner();
    await lane.receiver.waitFor(1, failing.path, 5_000);
    await (await getDb()).transaction((tx) => sendTestEvent(tx, { actor: at.seeded.actor, webhookId: failing.webhook.id }));
    const got = await lane.receiver.waitFor(2, failing.path, 5_000);
    expect(JSON.parse(got[1].body)).toMatchObject({ test: true });
  }, 30_000);

  it("costs a healthy endpoint nothing: below the failures in a row, no turn is taken", async () => {
    const at = await setup();
    const almost = await hook(at, [200]);
    await (await getDb())
      .update(mailWebhooks)
      .set({ consecutiveFailures: BREAKER_FAILURES - 1 })
      .where(eq(mailWebhooks.id, almost.webhook.id));
    await events(at, 5);
    await startRunner();
    await lane.receiver.waitFor(5, almost.path, 5_000);
    const [row] = await (await getDb()).select().from(mailWebhooks).where(eq(mailWebhooks.id, almost.webhook.id));
    expect(row.probeUntil).toBeNull();
  }, 30_000);
});
