import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { newId } from "@/lib/ids";
import { DeferJobError } from "@/lib/jobs/define-job-kind";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { takeEndpointSlot } from "@/lib/jobs/endpoint-slots";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { webhookLaneFixture } from "@/lib/testing/webhook-lane-fixture";

/**
 * A webhook has at most JOBS_WEBHOOK_ENDPOINT_CONCURRENCY requests in flight on an instance (lib/jobs/endpoint-slots.ts):
 * one that starts to hang holds that many of the lane's slots, not all of them, in the 10 s before its breaker
 * trips; one more delivery waits unattempted and goes as soon as a request to the endpoint ends.
 */
const lane = webhookLaneFixture();
const { setup, hook, events, startRunner, deliveriesOf, jobsOf } = lane;
const KIND = webhookDeliveryJob.kind;

async function jobRow(id: string) {
  const [row] = await (await getDb())
    .select({ status: jobs.status, due: sql<boolean>`${jobs.runAt} <= now()` })
    .from(jobs)
    .where(eq(jobs.id, id));
  return row;
}

describe("endpoint slots", () => {
  it("holds an endpoint that starts to hang to its slots, while the project's healthy endpoint gets every delivery at once", async () => {
    lane.endpointSlots(2);
    const at = await setup();
    const hanging = await hook(at, ["hang"]);
    const healthy = await hook(at, [200]);
    await events(at, 10);
    await startRunner(8);
    // Without the slots, the hanging endpoint's ten took all eight of the lane's slots for their 10 s deadline.
    await lane.receiver.waitFor(10, healthy.path, 4_000);
    await waitFor(async () => (await jobsOf(hanging.webhook)).filter((j) => j.parked).length === 8, 5_000);
    expect(lane.receiver.at(hanging.path)).toHaveLength(2);
    // The eight wait unattempted; the breaker has nothing to count.
    for (const j of (await jobsOf(hanging.webhook)).filter((j) => j.parked)) {
      expect(j).toMatchObject({ status: "pending", attempts: 0 });
      expect(j.lastError).toContain("2 requests to this endpoint are in flight");
    }
    expect((await deliveriesOf(hanging.webhook)).every((d) => d.status === "pending" && d.attempts === 0)).toBe(true);
  }, 30_000);

  it("sends a waiting delivery as soon as a request to the endpoint ends, not when its wait runs out", async () => {
    lane.endpointSlots(2);
    const at = await setup();
    const slow = await hook(at, ["hang", "hang", 200]);
    await events(at, 8);
    await startRunner(8);
    await waitFor(async () => (await jobsOf(slow.webhook)).filter((j) => j.parked).length === 6, 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(lane.receiver.at(slow.path)).toHaveLength(2);
    // Each was put back for 12 s and more; the two hanging requests end (the connection closes), and their retries
    // and the six waiting go, every one of the six before the time it was put back for.
    const putBackUntil = new Map((await jobsOf(slow.webhook)).filter((j) => j.parked).map((j) => [j.dedupeKey!.slice(4), j.runAt.getTime()]));
    lane.receiver.releaseHanging();
    await lane.receiver.waitFor(10, slow.path, 11_000);
    await waitFor(async () => (await deliveriesOf(slow.webhook)).every((d) => d.status === "delivered"), 5_000);
    expect(new Set(lane.receiver.at(slow.path).map((d) => d.id)).size).toBe(8);
    const eventOf = new Map((await deliveriesOf(slow.webhook)).map((d) => [d.id, d.eventId]));
    for (const [deliveryId, until] of putBackUntil) {
      const arrived = lane.receiver.at(slow.path).find((r) => r.id === eventOf.get(deliveryId));
      expect(arrived!.at).toBeLessThan(until);
    }
  }, 30_000);

  it("costs a busy endpoint that answers no waiting: one slot, 20 deliveries in a burst, all within a few seconds", async () => {
    lane.endpointSlots(1);
    const at = await setup();
    const busy = await hook(at, [200]);
    await events(at, 20);
    await startRunner(8);
    // Most of the burst is put back at first, for 12 s; each one is woken once the request before it has ended.
    await lane.receiver.waitFor(20, busy.path, 8_000);
    expect(new Set(lane.receiver.at(busy.path).map((d) => d.id)).size).toBe(20);
  }, 30_000);

  it("wakes a delivery whose put-back was still being written when the request it waited for ended", async () => {
    lane.endpointSlots(1);
    const db = await getDb();
    const webhookId = newId("whk");
    const deliveryId = newId("wdl");
    // A request to the endpoint is in flight; a delivery's job is held by a runner, and its handler finds no slot.
    const release = takeEndpointSlot(`webhook:${webhookId}`, `whk:${newId("wdl")}`, KIND);
    const [claimed] = await db
      .insert(jobs)
      .values({
        id: newId("job"),
        projectId: null,
        kind: KIND,
        payload: { delivery_id: deliveryId },
        dedupeKey: `whk:${deliveryId}`,
        status: "running",
        attempts: 1,
        maxAttempts: 9,
      })
      .returning();
    let deferred: unknown;
    try {
      takeEndpointSlot(`webhook:${webhookId}`, `whk:${deliveryId}`, KIND);
    } catch (err) {
      deferred = err;
    }
    expect(deferred).toBeInstanceOf(DeferJobError);
    // The request ends before the runner has written the job back: there is nothing to wake yet.
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect((await jobRow(claimed.id)).status).toBe("running");
    // The runner writes it back for the wait (run-job.ts's put-back), then tells the gate.
    await db.update(jobs).set({ status: "pending", parked: true, runAt: sql`now() + interval '12 seconds'` }).where(eq(jobs.id, claimed.id));
    (deferred as DeferJobError).afterPutBack!();
    await waitFor(async () => (await jobRow(claimed.id)).due, 5_000);
  });
});
