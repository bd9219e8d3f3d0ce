import { eq, getTableColumns, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queueCallback } from "@/lib/approvals/callbacks/queue-callback";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailWebhookAttempts, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { newId } from "@/lib/ids";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { JobRunner } from "@/lib/jobs/job-runner";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { sendEmail } from "@/lib/mail/outbound/send-email";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { jobLanes } from "@/lib/services/job-runner";
import { envSettings } from "@/lib/testing/env-settings";
import { emitBareMailEvent } from "@/lib/testing/mail-events";
import { seedProject } from "@/lib/testing/seed";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

/** Job runner lanes (design D11): webhook deliveries have slots of their own, so hanging endpoints never delay mail. */
const settings = envSettings("OUTBOUND_");
let receiver: WebhookReceiver;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let runner: JobRunner | null = null;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
  seeded = await seedProject({ name: "Lanes" });
});
afterEach(async () => {
  receiver.releaseHanging();
  await runner?.stop();
  runner = null;
});
afterAll(async () => {
  settings.restore();
  await receiver.close();
});

describe("claimJobs", () => {
  it("takes at most `limit` due jobs, of the kinds asked or of every kind but those excepted", async () => {
    const db = await getDb();
    const insert = (kind: string, count: number) =>
      db.insert(jobs).values(Array.from({ length: count }, () => ({ id: newId("job"), projectId: null, kind, payload: {}, maxAttempts: 3 })));
    await insert("test.lane-a", 10);
    await insert("test.lane-b", 3);
    const two = await claimJobs(db, { limit: 2, kinds: ["test.lane-a"] });
    expect(two.map((j) => j.kind)).toEqual(["test.lane-a", "test.lane-a"]);
    expect(two.every((j) => j.status === "running" && j.attempts === 1)).toBe(true);
    expect(Object.keys(two[0]).sort()).toEqual(Object.keys(getTableColumns(jobs)).sort());
    const others = await claimJobs(db, { limit: 50, exceptKinds: ["test.lane-a"] });
    expect(others.map((j) => j.kind)).toEqual(["test.lane-b", "test.lane-b", "test.lane-b"]);
    const rest = await claimJobs(db, { limit: 50, kinds: ["test.lane-a"] });
    expect(rest).toHaveLength(8);
  });
});

describe("job runner lanes", () => {
  /** Four webhooks whose endpoints never answer, and one event that fans out to all four. */
  async function fourHangingWebhooks() {
    const db = await getDb();
    await db.update(mailWebhooks).set({ enabled: false }).where(eq(mailWebhooks.projectId, seeded.project.id));
    for (let i = 0; i < 4; i++) {
      const path = `/hang-${newId("p")}`;
      const { webhook } = await createWebhook(db, {
        actor: seeded.actor,
        webhook: { url: `http://${receiver.host}${path}`, eventTypes: ["message.received"] },
      });
      receiver.endpoint(path, { secrets: [openWebhookSecret(webhook)], answers: ["hang"] });
    }
    const mailbox = await defaultMailbox(db, seeded.project.id);
    const before = receiver.received.length;
    await emitBareMailEvent({ projectId: seeded.project.id, mailboxId: mailbox.id }, { to: [mailbox.address] });
    return before;
  }

  /** A mail to the project's own address (delivered locally by a mail.deliver job). */
  async function sendMail() {
    const db = await getDb();
    const mailbox = await defaultMailbox(db, seeded.project.id);
    const sent = await db.transaction((tx) =>
      sendEmail(tx, { actor: seeded.actor, to: [mailbox.address], subject: "lane", text: "t", attachments: [], reply_to_inbox: true }),
    );
    return sent.messages[0].message_id;
  }
  /** A runner with four slots (plus a webhook lane of four, or none), once the four hanging requests have arrived. */
  async function startRunnerHeldByFourHangingWebhooks(opts: { webhookLane: boolean }) {
    runner = new JobRunner(await getDb(), {
      concurrency: 4,
      pollMs: 60_000,
      lanes: opts.webhookLane ? [{ kinds: [webhookDeliveryJob.kind], concurrency: 4 }] : [],
    });
    await runner.start();
    const before = await fourHangingWebhooks();
    await receiver.waitFor(before + 4);
  }
  const statusOf = async (id: string) =>
    (await (await getDb()).select({ status: mailMessages.status }).from(mailMessages).where(eq(mailMessages.id, id)))[0].status;

  it("runs a mail.deliver job while every webhook slot waits on a hanging endpoint", async () => {
    const db = await getDb();
    await startRunnerHeldByFourHangingWebhooks({ webhookLane: true });
    const messageId = await sendMail();
    await waitFor(async () => (await statusOf(messageId)) === "sent", 5_000);
    // The four requests are still open: no attempt has been logged, their jobs still run.
    expect(await db.select().from(mailWebhookAttempts).where(eq(mailWebhookAttempts.projectId, seeded.project.id))).toHaveLength(0);
    const running = await db
      .select()
      .from(jobs)
      .where(inArray(jobs.status, ["running"]));
    expect(running.filter((j) => j.kind === webhookDeliveryJob.kind)).toHaveLength(4);
    expect(runner?.busy).toBe(4);
  }, 30_000);

  it("stop() cuts the requests of webhook jobs waiting on hanging endpoints, each attempt logged as cancelled", async () => {
    const db = await getDb();
    await startRunnerHeldByFourHangingWebhooks({ webhookLane: true });
    const attemptsOf = () => db.select().from(mailWebhookAttempts).where(eq(mailWebhookAttempts.projectId, seeded.project.id));
    const earlier = new Set((await attemptsOf()).map((a) => a.id));
    await runner?.stop();
    runner = null;
    const attempts = (await attemptsOf()).filter((a) => !earlier.has(a.id));
    expect(attempts).toHaveLength(4);
    // Cut by the runner's signal. Without it, stop() waited out the 10 s request deadline and each attempt said "timed out".
    expect(attempts.every((a) => !a.ok && /cancelled before an answer came/.test(a.error ?? ""))).toBe(true);
  }, 30_000);

  it("runs a mail.deliver job while four approval callbacks wait on a hanging endpoint (the service's lanes)", async () => {
    // An agent's callback_url that never answers: each resolved request's callback holds a slot for 10 s, then retries.
    const path = `/hang-${newId("p")}`;
    const url = receiver.endpoint(path, { secrets: [], answers: ["hang"] });
    runner = new JobRunner(await getDb(), { concurrency: 4, pollMs: 60_000, lanes: jobLanes() });
    await runner.start();
    const db = await getDb();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 4; i++) {
        await queueCallback(tx, { projectId: seeded.project.id, url, eventId: newId("evt"), payload: { request_id: newId("req") } });
      }
    });
    await receiver.waitFor(4, path);
    const messageId = await sendMail();
    // Before: approvals.callback ran in the shared lane, and the four held all its slots until their 10 s deadline.
    await waitFor(async () => (await statusOf(messageId)) === "sent", 5_000);
    expect(receiver.at(path)).toHaveLength(4);
  }, 30_000);

  it("holds a project's callbacks to a hanging origin to its endpoint slots; the rest go at once, the waiting ones when a request ends", async () => {
    const slots = envSettings("JOBS_");
    slots.set({ JOBS_WEBHOOK_ENDPOINT_CONCURRENCY: "2" });
    try {
      // Projects of their own: the earlier tests' callbacks to this host wait for their retries.
      const [held, other] = [await seedProject({ name: "Lanes held" }), await seedProject({ name: "Lanes other" })];
      const hangPath = `/hang-${newId("p")}`;
      const hangUrl = receiver.endpoint(hangPath, { secrets: [], answers: ["hang", "hang", 200] });
      const okPath = `/ok-${newId("p")}`;
      const okUrl = receiver.endpoint(okPath, { secrets: [], answers: [200] });
      runner = new JobRunner(await getDb(), { concurrency: 4, pollMs: 60_000, lanes: jobLanes() });
      await runner.start();
      const queue = (projectId: string, url: string, count: number) =>
        getDb().then((db) =>
          db.transaction(async (tx) => {
            for (let i = 0; i < count; i++) await queueCallback(tx, { projectId, url, eventId: newId("evt"), payload: { request_id: newId("req") } });
          }),
        );
      await queue(held.project.id, hangUrl, 6);
      await receiver.waitFor(2, hangPath);
      // Another project's callbacks to the same host are another endpoint: they go while the two hang.
      await queue(other.project.id, okUrl, 3);
      await receiver.waitFor(3, okPath, 5_000);
      const parked = async () =>
        (await (await getDb()).select().from(jobs).where(eq(jobs.kind, "approvals.callback"))).filter((j) => j.projectId === held.project.id && j.parked);
      await waitFor(async () => (await parked()).length === 4, 5_000);
      // Before, all six took slots of the lane (its share of them) for their 10 s deadline; the four wait unattempted.
      expect(receiver.at(hangPath)).toHaveLength(2);
      for (const j of await parked()) expect(j).toMatchObject({ status: "pending", attempts: 0 });
      // The hanging requests end (the connection closes): the four go at once, not when their 12 s wait runs out.
      receiver.releaseHanging();
      await receiver.waitFor(6, hangPath, 5_000);
    } finally {
      slots.restore();
    }
  }, 30_000);

  it("without a lane, the same four endpoints hold every slot and the mail waits (the control)", async () => {
    await startRunnerHeldByFourHangingWebhooks({ webhookLane: false });
    const messageId = await sendMail();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await statusOf(messageId)).toBe("queued");
    // The endpoints give up (connection closed): the slots come free and the mail goes.
    receiver.releaseHanging();
    await waitFor(async () => (await statusOf(messageId)) === "sent", 5_000);
  }, 30_000);
});
