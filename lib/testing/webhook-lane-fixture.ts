import { and, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailWebhookDeliveries, mailWebhooks, type MailWebhook } from "@/lib/db/schema/mail-webhooks";
import { JobRunner } from "@/lib/jobs/job-runner";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { BREAKER_FAILURES } from "@/lib/mail/webhooks/webhook-breaker";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { envSettings } from "@/lib/testing/env-settings";
import { emitBareMailEvent } from "@/lib/testing/mail-events";
import { seedProject } from "@/lib/testing/seed";
import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

const KIND = webhookDeliveryJob.kind;

/**
 * A project's webhooks on a real receiver, delivered by a real job runner's webhook lane (the breaker's, the
 * endpoint slots', shutdown's and the claim lease's tests): registers the receiver's start and close and stops the
 * runner after each test.
 */
export function webhookLaneFixture() {
  const outbound = envSettings("OUTBOUND_");
  const slots = envSettings("JOBS_WEBHOOK_ENDPOINT_");
  let receiver: WebhookReceiver;
  let runner: JobRunner | null = null;
  let n = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    outbound.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
  });
  afterEach(async () => {
    receiver.releaseHanging();
    await runner?.stop();
    runner = null;
    slots.restore();
  });
  afterAll(async () => {
    outbound.restore();
    await receiver.close();
  });

  async function setup() {
    const seeded = await seedProject({ name: "Webhook lane" });
    const mailbox = await defaultMailbox(await getDb(), seeded.project.id);
    return { seeded, mailbox };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  /** A webhook on a fresh receiver path answering `answers`; `failing`: it has failed BREAKER_FAILURES times in a row. */
  async function hook(at: Setup, answers: ReceiverAnswer[], failing = false) {
    const db = await getDb();
    const path = `/lane-${++n}`;
    const { webhook } = await createWebhook(db, {
      actor: at.seeded.actor,
      webhook: { url: `http://${receiver.host}${path}`, eventTypes: ["message.received"] },
    });
    receiver.endpoint(path, { secrets: [openWebhookSecret(webhook)], answers });
    const since = new Date(Date.now() - 60_000);
    if (failing) {
      await db.update(mailWebhooks).set({ consecutiveFailures: BREAKER_FAILURES, firstFailureAt: since }).where(eq(mailWebhooks.id, webhook.id));
    }
    return { webhook, path, since: since.getTime() };
  }

  /** `count` events, each delivered to every webhook of the project. */
  async function events(at: Setup, count: number) {
    for (let i = 0; i < count; i++) await emitBareMailEvent({ projectId: at.seeded.project.id, mailboxId: at.mailbox.id });
  }

  /** A runner with a webhook lane of `slots` and no project share; `opts` override the rest (a short lease, say). */
  async function startRunner(slots = 8, opts: Partial<ConstructorParameters<typeof JobRunner>[1]> = {}) {
    runner = new JobRunner(await getDb(), { concurrency: 2, pollMs: 200, lanes: [{ kinds: [KIND], concurrency: slots }], projectSharePercent: 100, ...opts });
    await runner.start();
    return runner;
  }

  async function deliveriesOf(webhook: MailWebhook) {
    return (await getDb()).select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.webhookId, webhook.id));
  }
  async function jobsOf(webhook: MailWebhook) {
    const keys = (await deliveriesOf(webhook)).map((d) => `whk:${d.id}`);
    return (await getDb())
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, KIND), inArray(jobs.dedupeKey, keys)));
  }

  return {
    get receiver() {
      return receiver;
    },
    /** JOBS_WEBHOOK_ENDPOINT_CONCURRENCY for this test. */
    endpointSlots: (count: number) => slots.set({ JOBS_WEBHOOK_ENDPOINT_CONCURRENCY: String(count) }),
    setup,
    hook,
    events,
    startRunner,
    deliveriesOf,
    jobsOf,
  };
}
