import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { JobRunner } from "@/lib/jobs/job-runner";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { envSettings } from "@/lib/testing/env-settings";
import { emitBareMailEvent } from "@/lib/testing/mail-events";
import { seedProject } from "@/lib/testing/seed";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

/** A short claim lease is safe only if a live runner renews it: a job running past it must stay its runner's. */
const settings = envSettings("OUTBOUND_");
let receiver: WebhookReceiver;
let runner: JobRunner | null = null;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
});
afterAll(async () => {
  receiver.releaseHanging();
  await runner?.stop();
  settings.restore();
  await receiver.close();
});

describe("claim leases", () => {
  it("renews a running job's lease while its runner lives: past the lease it is neither reclaimed nor claimed again", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const seeded = await seedProject({ name: "Lease heartbeat" });
    const { webhook } = await createWebhook(db, { actor: seeded.actor, webhook: { url: `http://${receiver.host}/hang`, eventTypes: ["message.received"] } });
    receiver.endpoint("/hang", { secrets: [openWebhookSecret(webhook)], answers: ["hang"] });
    const mailbox = await defaultMailbox(db, seeded.project.id);
    await emitBareMailEvent({ projectId: seeded.project.id, mailboxId: mailbox.id });
    runner = new JobRunner(db, { concurrency: 1, pollMs: 200, leaseSeconds: 1, lanes: [{ kinds: [webhookDeliveryJob.kind], concurrency: 2 }] });
    await runner.start();
    await waitFor(async () => receiver.at("/hang").length === 1, 20_000);
    const mine = and(eq(jobs.kind, webhookDeliveryJob.kind), eq(jobs.projectId, seeded.project.id));
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
    expect(receiver.at("/hang")).toHaveLength(1);
  });
});
