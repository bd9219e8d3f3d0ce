import { describe, expect, it } from "vitest";
import { webhookLaneFixture } from "@/lib/testing/webhook-lane-fixture";

/**
 * An instance that stops (SIGTERM on a deploy) lets the deliveries in flight finish for JOBS_STOP_GRACE_SECONDS
 * before it aborts them: one the endpoint had already received, aborted before its answer was recorded, would be
 * retried and arrive twice.
 */
const lane = webhookLaneFixture();
const { setup, hook, events, startRunner, deliveriesOf, jobsOf } = lane;

describe("stopping with deliveries in flight", () => {
  it("finishes a delivery whose endpoint answers within the grace: recorded once, never sent again", async () => {
    const at = await setup();
    const slow = await hook(at, [{ status: 200, afterMs: 500 }]);
    await events(at, 1);
    const runner = await startRunner(8, { stopGraceMs: 5_000 });
    await lane.receiver.waitFor(1, slow.path, 5_000);
    await runner.stop();
    const [delivery] = await deliveriesOf(slow.webhook);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1 });
    const [job] = await jobsOf(slow.webhook);
    expect(job.status).toBe("done");
    // A runner started after it has nothing left to send.
    await startRunner(8);
    await new Promise((r) => setTimeout(r, 500));
    expect(lane.receiver.at(slow.path)).toHaveLength(1);
  }, 30_000);

  it("aborts what is still running when the grace is over, and leaves it to be retried", async () => {
    const at = await setup();
    const hanging = await hook(at, ["hang"]);
    await events(at, 1);
    const runner = await startRunner(8, { stopGraceMs: 300 });
    await lane.receiver.waitFor(1, hanging.path, 5_000);
    await runner.stop();
    const [delivery] = await deliveriesOf(hanging.webhook);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
    expect(delivery.lastError).toContain("cancelled before an answer came");
    const [job] = await jobsOf(hanging.webhook);
    expect(job.status).toBe("pending");
  }, 30_000);
});
