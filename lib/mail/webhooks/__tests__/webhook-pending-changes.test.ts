import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailWebhookDeliveries, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { claimJobs, reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { runJob } from "@/lib/jobs/run-job";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { resendDelivery } from "@/lib/mail/webhooks/resend-delivery";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { createMailbox } from "@/lib/mail/mailboxes/create-mailbox";

/**
 * A delivery already queued when its webhook changes underneath it, and the delivery log when the job dies without
 * its handler settling the delivery.
 */
const KIND = webhookDeliveryJob.kind;
const settings = envSettings("OUTBOUND_");
let receiver: WebhookReceiver;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let n = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
  seeded = await seedProject({ name: "Pending deliveries" });
});
afterAll(async () => {
  settings.restore();
  await receiver.close();
});
beforeEach(async () => {
  const db = await getDb();
  await db.update(mailWebhooks).set({ enabled: false }).where(eq(mailWebhooks.projectId, seeded.project.id));
  await db.delete(jobs).where(and(eq(jobs.kind, KIND), eq(jobs.status, "pending")));
});

async function hook(eventTypes = ["message.received", "message.sent"], answers: (number | "hang")[] = [200]) {
  const db = await getDb();
  const path = `/pending-${++n}`;
  const { webhook } = await createWebhook(db, {
    actor: seeded.actor,
    webhook: { url: `http://${receiver.host}${path}`, eventTypes: eventTypes as never },
  });
  receiver.endpoint(path, { secrets: [openWebhookSecret(webhook)], answers });
  return { webhook, path };
}

async function event(type = "message.received", mailboxId?: string) {
  const db = await getDb();
  const mailbox = mailboxId ? { id: mailboxId, address: "x@example.com" } : await defaultMailbox(db, seeded.project.id);
  return db.transaction((tx) =>
    emitMailEvent(tx, {
      projectId: seeded.project.id,
      mailboxId: mailbox.id,
      type: type as never,
      messageId: null,
      threadId: null,
      summary: { from: "ada@example.org", to: [mailbox.address], subject: "Hello", preview: "Hi there", labels: ["received"] },
    }),
  );
}

const deliveriesOf = async (webhookId: string) =>
  (await getDb()).select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.webhookId, webhookId)).orderBy(asc(mailWebhookDeliveries.createdAt));

describe("a queued delivery whose webhook is narrowed before it runs", () => {
  it("is not sent once the webhook no longer wants its event type", async () => {
    const { webhook, path } = await hook(["message.received", "message.sent"]);
    const eventId = await event("message.received");
    expect(await deliveriesOf(webhook.id)).toMatchObject([{ status: "pending", eventType: "message.received" }]);
    const db = await getDb();
    // The subscriber drops message.received: it no longer wants those events.
    await db.transaction((tx) => updateWebhook(tx, { actor: seeded.actor, webhookId: webhook.id, changes: { eventTypes: ["message.sent"] } }));
    await drainJobs({ kinds: [KIND] });
    // Before: POSTed, and retried for 27 h against a failing endpoint, to a webhook that unsubscribed from it.
    expect(receiver.ids.get(eventId) ?? 0).toBe(0);
    expect(receiver.at(path)).toHaveLength(0);
    const [cancelled] = await deliveriesOf(webhook.id);
    expect(cancelled).toMatchObject({ status: "cancelled", lastError: "the webhook no longer subscribes to message.received" });
    // Resending it would send nothing either: refused, naming why.
    await expect(db.transaction((tx) => resendDelivery(tx, { actor: seeded.actor, deliveryId: cancelled.id }))).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Nothing would be sent: the webhook no longer subscribes to message.received.",
    });
  });

  it("is not sent once the webhook no longer watches the event's inbox", async () => {
    const db = await getDb();
    const { mailbox: other } = await db.transaction((tx) =>
      createMailbox(tx, { actor: seeded.actor, username: `pending${Math.random().toString(36).slice(2, 8)}` } as never),
    );
    const { webhook, path } = await hook(["message.received"]);
    const mailbox = await defaultMailbox(db, seeded.project.id);
    const eventId = await event("message.received", mailbox.id);
    expect(await deliveriesOf(webhook.id)).toMatchObject([{ status: "pending" }]);
    // Narrowed from every inbox to another one only.
    await db.transaction((tx) => updateWebhook(tx, { actor: seeded.actor, webhookId: webhook.id, changes: { inboxIds: [other.id] } }));
    await drainJobs({ kinds: [KIND] });
    expect(receiver.ids.get(eventId) ?? 0).toBe(0);
    expect(receiver.at(path)).toHaveLength(0);
    expect((await deliveriesOf(webhook.id))[0].status).toBe("cancelled");
  });
});

describe("a delivery whose job fails without its handler settling it", () => {
  it("is not left 'pending' forever when the last attempt's runner died (lease expired, attempts used up)", async () => {
    const { webhook } = await hook(["message.received"], [500]);
    await event("message.received");
    const [delivery] = await deliveriesOf(webhook.id);
    const db = await getDb();
    // Eight attempts failed already; the ninth (last) was claimed by a runner that then died: its lease ran out.
    const [job] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, KIND), eq(jobs.dedupeKey, `whk:${delivery.id}`)));
    await db
      .update(jobs)
      .set({ status: "running", attempts: job.maxAttempts, lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, job.id));
    expect(await reclaimExpiredJobs(db)).toBeGreaterThanOrEqual(1);
    const claimed = await claimJobs(db, { limit: 50, kinds: [KIND] });
    const mine = claimed.find((j) => j.id === job.id)!;
    expect(mine).toBeDefined();
    expect(await runJob(db, mine)).toBe("failed");
    expect((await db.select().from(jobs).where(eq(jobs.id, job.id)))[0].status).toBe("failed");
    // The job is gone for good, so nothing will ever attempt this delivery again. Before: the log said "pending".
    const [after] = await deliveriesOf(webhook.id);
    expect(after.status).toBe("failed");
  });
});
