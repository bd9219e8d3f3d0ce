import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { webhookLaneFixture } from "@/lib/testing/webhook-lane-fixture";

/** A short claim lease is safe only if a live runner renews it: a job running past it must stay its runner's. */
const lane = webhookLaneFixture();

describe("claim leases", () => {
  it("renews a running job's lease while its runner lives: past the lease it is neither reclaimed nor claimed again", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const at = await lane.setup();
    const { path } = await lane.hook(at, ["hang"]);
    await lane.events(at, 1);
    await lane.startRunner(2, { concurrency: 1, leaseSeconds: 1 });
    await waitFor(async () => lane.receiver.at(path).length === 1, 20_000);
    const mine = and(eq(jobs.kind, webhookDeliveryJob.kind), eq(jobs.projectId, at.seeded.project.id));
    const [claimed] = await db.select().from(jobs).where(mine);
    // Three leases' worth of the request hanging (the webhook's own deadline is 10 s).
    await new Promise((r) => setTimeout(r, 3_000));
    await reclaimExpiredJobs(db);
    // Not reclaimed (still running) and not claimed again (the same attempt), its lease still ahead: renewed.
    const [row] = await db
      .select({ status: jobs.status, attempts: jobs.attempts, leased: sql<boolean>`${jobs.lockedUntil} > now()` })
      .from(jobs)
      .where(mine);
    expect(row).toEqual({ status: "running", attempts: claimed.attempts, leased: true });
    expect(lane.receiver.at(path)).toHaveLength(1);
  });
});
