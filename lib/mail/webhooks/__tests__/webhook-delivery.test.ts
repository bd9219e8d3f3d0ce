import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { mailWebhookAttempts, mailWebhookDeliveries, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { setResolverForTests } from "@/lib/http/safe-fetch";
import { keyActor } from "@/lib/keys/key-actor";
import { claimJobs, reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { runJob } from "@/lib/jobs/run-job";
import { fakeResolver, sendTo, startSink, waitFor } from "@/lib/mail/__tests__/helpers";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { buildEventPayload, fitPayload } from "@/lib/mail/events/event-payload";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createMailbox } from "@/lib/mail/mailboxes/create-mailbox";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/mail/webhooks/delete-webhook";
import { SUSTAINED_FAILURE_MS } from "@/lib/mail/webhooks/disable-webhook";
import { resendDelivery } from "@/lib/mail/webhooks/resend-delivery";
import { rotateWebhookSecret } from "@/lib/mail/webhooks/rotate-secret";
import { sendTestEvent } from "@/lib/mail/webhooks/send-test-event";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { webhookSignature } from "@/lib/mail/webhooks/sign-webhook";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { sealWebhookHeaders } from "@/lib/mail/webhooks/webhook-headers";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { envSettings } from "@/lib/testing/env-settings";
import { seedReceivedMail } from "@/lib/testing/mail-fixture";
import { OWNER_EMAIL, seedKey, seedProject } from "@/lib/testing/seed";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { Webhook } from "standardwebhooks";

/**
 * Webhook deliveries end to end (design §2.9, §4 C): real mail events, the real job handler, safeFetch, and a real
 * node:http receiver that verifies every delivery with the `standardwebhooks` package.
 */
const KIND = webhookDeliveryJob.kind;
const settings = envSettings("OUTBOUND_");
const relay = envSettings("SMTP_RELAY");
let receiver: WebhookReceiver;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let n = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
  seeded = await seedProject({ name: "Webhooks" });
});
afterAll(async () => {
  setResolverForTests(null);
  settings.restore();
  relay.restore();
  await receiver.close();
});
beforeEach(async () => {
  // Each test's webhooks and jobs only: the earlier ones' are switched off so no event fans out to them, and their
  // retries (the first is due at once) are dropped.
  const db = await getDb();
  await db.update(mailWebhooks).set({ enabled: false }).where(eq(mailWebhooks.projectId, seeded.project.id));
  await db.delete(jobs).where(and(eq(jobs.kind, KIND), eq(jobs.status, "pending")));
});

/** A webhook of the test project (as the owner makes it) on a fresh receiver path that answers `answers`. */
async function hook(answers: Parameters<WebhookReceiver["endpoint"]>[1]["answers"] = [200], eventTypes = ["message.received", "message.sent"]) {
  const db = await getDb();
  const path = `/hook-${++n}`;
  const { webhook } = await createWebhook(db, {
    actor: seeded.actor,
    webhook: { url: `http://${receiver.host}${path}`, eventTypes: eventTypes as never },
  });
  const secret = openWebhookSecret(webhook);
  receiver.endpoint(path, { secrets: [secret], answers });
  return { webhook, secret, path };
}

/** An event in the project's address, emitted as the mail code does (its fan-out included), in a transaction. */
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
const attemptsOf = async (webhookId: string) =>
  (await getDb()).select().from(mailWebhookAttempts).where(eq(mailWebhookAttempts.webhookId, webhookId)).orderBy(asc(mailWebhookAttempts.at));
const webhookRow = async (id: string) => (await (await getDb()).select().from(mailWebhooks).where(eq(mailWebhooks.id, id)))[0];
const jobOf = async (deliveryId: string) =>
  (
    await (
      await getDb()
    )
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, KIND), eq(jobs.dedupeKey, `whk:${deliveryId}`)))
  )[0];

/** Runs the due webhook jobs once each (no immediate retry), as one runner pass would. */
async function runOnce(): Promise<string[]> {
  const db = await getDb();
  const claimed = await claimJobs(db, { limit: 50, kinds: [KIND] });
  return Promise.all(claimed.map((j) => runJob(db, j)));
}

describe("webhook deliveries", () => {
  it("delivers a mail that came in over SMTP, signed so standardwebhooks verifies it, with the message and thread as they are", async () => {
    const { webhook, path } = await hook();
    const listener: SmtpListener = await startSmtpListener({
      port: 0,
      host: "127.0.0.1",
      resolver: fakeResolver({ "sender.example": "v=spf1 ip4:127.0.0.1 -all" }),
    });
    try {
      const mailbox = await defaultMailbox(await getDb(), seeded.project.id);
      await sendTo(listener.port, { from: "Ada <ada@sender.example>", to: mailbox.address, subject: "Invoice 42", text: "Please find it attached." });
    } finally {
      await listener.close();
    }
    const [delivery] = await waitFor(async () => (await deliveriesOf(webhook.id)).length > 0 && deliveriesOf(webhook.id));
    expect(delivery).toMatchObject({ status: "pending", eventType: "message.received", attempts: 0 });
    await drainJobs({ kinds: [KIND] });

    const [got] = receiver.at(path);
    expect(got.verifiedBy).toHaveLength(1);
    expect(got.id).toBe(delivery.eventId);
    expect(got.id).toMatch(/^mev_/);
    expect(Number(got.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(got.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ type: "event", event_type: "message.received", event_id: delivery.eventId });
    expect(body.message).toMatchObject({ subject: "Invoice 42", from: "Ada <ada@sender.example>", labels: expect.arrayContaining(["received"]) });
    expect(body.message.text).toContain("Please find it attached.");
    expect(body.message.message_id).toMatch(/^msg_/);
    expect(body.thread).toMatchObject({ thread_id: body.message.thread_id, message_count: 1 });
    // The event itself holds no body (design D10); the payload read the message row.
    const [stored] = await (await getDb()).select().from(mailEvents).where(eq(mailEvents.id, delivery.eventId));
    expect(Object.keys(stored.summary).sort()).toEqual(["from", "labels", "preview", "subject", "to"]);

    const [after] = await deliveriesOf(webhook.id);
    expect(after).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, lastError: null });
    expect(after.deliveredAt).toBeInstanceOf(Date);
    const [attempt] = await attemptsOf(webhook.id);
    expect(attempt).toMatchObject({ ok: true, statusCode: 200, responseSnippet: "ok", error: null, deliveryId: delivery.id });
    expect((await webhookRow(webhook.id)).lastDeliveryAt).toBeInstanceOf(Date);
    expect((await jobOf(delivery.id)).status).toBe("done");
  });

  it("signs with node:crypto exactly as the standardwebhooks package does", () => {
    const secret = `whsec_${Buffer.from("0123456789abcdefghijklmn").toString("base64")}`;
    const at = new Date(1_700_000_000_000);
    expect(webhookSignature(secret, "mev_1", 1_700_000_000, '{"a":1}')).toBe(new Webhook(secret).sign("mev_1", at, '{"a":1}'));
  });

  it("sends the custom headers, which can never replace ours, and both signatures during a rotation", async () => {
    const { webhook, secret: oldSecret, path } = await hook();
    const db = await getDb();
    // Written past the header validation (an old row, or a bug there): the delivery still keeps its own headers.
    const forged = { "X-Tenant": "t-1", Authorization: "Bearer abc", "Webhook-Id": "forged", "CONTENT-TYPE": "text/plain", "Webhook-Signature": "v1,forged" };
    await db
      .update(mailWebhooks)
      .set({ headersEnc: sealWebhookHeaders(webhook.id, forged) })
      .where(eq(mailWebhooks.id, webhook.id));
    const rotated = await db.transaction((tx) => rotateWebhookSecret(tx, { actor: seeded.actor, webhookId: webhook.id }));
    receiver.endpoint(path, { secrets: [rotated.secret, oldSecret] });
    const eventId = await event();
    await drainJobs({ kinds: [KIND] });

    const [got] = receiver.at(path);
    expect(got.headers["x-tenant"]).toBe("t-1");
    expect(got.headers.authorization).toBe("Bearer abc");
    expect(got.headers["webhook-id"]).toBe(eventId);
    expect(got.headers["content-type"]).toBe("application/json");
    const signatures = String(got.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith("v1,") && s !== "v1,forged")).toBe(true);
    // Each secret verifies the delivery on its own: receivers on either side of the switch accept it.
    expect(got.verifiedBy.sort()).toEqual([rotated.secret, oldSecret].sort());

    // Once the overlap is over, only the new secret signs.
    await db
      .update(mailWebhooks)
      .set({ previousSecretUntil: new Date(Date.now() - 1000) })
      .where(eq(mailWebhooks.id, webhook.id));
    await event();
    await drainJobs({ kinds: [KIND] });
    const second = receiver.at(path)[1];
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(second.verifiedBy).toEqual([rotated.secret]);
  });

  it("retries a 500 at once, then records the 200: delivered, two attempts logged, the failure run reset", async () => {
    const { webhook, path } = await hook([500, 200]);
    const eventId = await event();
    await runOnce();
    const [pending] = await deliveriesOf(webhook.id);
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "answered 500" });
    expect(await webhookRow(webhook.id)).toMatchObject({ consecutiveFailures: 1, enabled: true });
    expect((await webhookRow(webhook.id)).firstFailureAt).toBeInstanceOf(Date);
    // The first retry is due at once (the schedule's first wait is 0).
    expect((await jobOf(pending.id)).status).toBe("pending");
    await runOnce();

    expect(receiver.ids.get(eventId)).toBe(2);
    expect(receiver.at(path).every((r) => r.verifiedBy.length === 1)).toBe(true);
    const attempts = await attemptsOf(webhook.id);
    expect(attempts.map((a) => [a.ok, a.statusCode, a.responseSnippet])).toEqual([
      [false, 500, "answer 500"],
      [true, 200, "ok"],
    ]);
    expect(attempts.every((a) => a.durationMs >= 0)).toBe(true);
    const [delivered] = await deliveriesOf(webhook.id);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(await webhookRow(webhook.id)).toMatchObject({ consecutiveFailures: 0, firstFailureAt: null });
  });

  it("waits a 429's or 503's Retry-After before the next attempt, within the schedule's longest wait", async () => {
    const { webhook } = await hook([
      { status: 429, headers: { "retry-after": "120" } },
      { status: 503, headers: { "retry-after": "9999999" } },
    ]);
    await event();
    const before = Date.now();
    await runOnce();
    const after = Date.now();
    const [waiting] = await deliveriesOf(webhook.id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 429, lastError: "answered 429 (Retry-After: 120 s)" });
    // Not at once (the schedule's first wait): two minutes on, and the job's time with it (plus up to 10 %).
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 120_000);
    expect(waiting.nextAttemptAt!.getTime()).toBeLessThanOrEqual(after + 120_000);
    const job = await jobOf(waiting.id);
    expect(job).toMatchObject({ status: "pending", parked: true });
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(before + 120_000);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(after + 132_000);
    // A wait past the schedule's longest (10 h) is held to it.
    await (await getDb()).update(jobs).set({ runAt: sql`now()`, parked: false }).where(eq(jobs.id, job.id));
    const before2 = Date.now();
    await runOnce();
    const after2 = Date.now();
    const [again] = await deliveriesOf(webhook.id);
    expect(again).toMatchObject({ attempts: 2, lastStatusCode: 503 });
    expect(again.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before2 + 36_000_000);
    expect(again.nextAttemptAt!.getTime()).toBeLessThanOrEqual(after2 + 36_000_000);
  });

  it("switches the webhook off on a 410: no more attempts, its other pending deliveries cancelled, no new ones", async () => {
    const { webhook, path } = await hook([410]);
    const first = await event();
    await event();
    const [d1, d2] = await deliveriesOf(webhook.id);
    const db = await getDb();
    // Only the first delivery runs now; the second waits its turn.
    const [claimed] = await claimJobs(db, { limit: 1, kinds: [KIND] });
    expect(claimed.payload).toEqual({ delivery_id: d1.id });
    expect(await runJob(db, claimed)).toBe("failed");

    expect(receiver.ids.get(first)).toBe(1);
    expect(await webhookRow(webhook.id)).toMatchObject({ enabled: false, disabledReason: "410 Gone" });
    expect((await deliveriesOf(webhook.id)).map((d) => [d.id, d.status])).toEqual([
      [d1.id, "failed"],
      [d2.id, "cancelled"],
    ]);
    expect((await jobOf(d1.id)).status).toBe("failed");
    expect(await jobOf(d2.id)).toBeUndefined();
    await event();
    expect(await deliveriesOf(webhook.id)).toHaveLength(2);
    await drainJobs({ kinds: [KIND] });
    expect(receiver.at(path)).toHaveLength(1);
    expect(await attemptsOf(webhook.id)).toMatchObject([{ ok: false, statusCode: 410 }]);
  });

  it("counts a 302 to the metadata address as a failure and does not follow it", async () => {
    const { webhook, path } = await hook(["redirect-metadata"]);
    await event();
    const before = receiver.received.length;
    await runOnce();
    expect(receiver.received.length - before).toBe(1);
    expect(receiver.at(path)).toHaveLength(1);
    const [attempt] = await attemptsOf(webhook.id);
    expect(attempt).toMatchObject({ ok: false, statusCode: 302, error: "answered 302 (redirects are not followed)" });
    const [d] = await deliveriesOf(webhook.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 302 });
    expect((await jobOf(d.id)).status).toBe("pending");
  });

  it("logs a hanging endpoint as a timeout after 10 s and retries", async () => {
    const { webhook } = await hook(["hang"]);
    await event();
    await runOnce();
    const [attempt] = await attemptsOf(webhook.id);
    expect(attempt).toMatchObject({ ok: false, statusCode: null, error: "timed out" });
    const [d] = await deliveriesOf(webhook.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastError: "timed out" });
    expect((await jobOf(d.id)).status).toBe("pending");
    receiver.releaseHanging();
  }, 30_000);

  it("refuses a name that resolves to a private address at delivery time (DNS rebinding): no socket opened, retried", async () => {
    for (const address of ["10.0.0.5", "127.0.0.1"]) {
      const { webhook } = await hook();
      const db = await getDb();
      // A public-looking name, accepted when the webhook was made, that now resolves to `address`.
      await db
        .update(mailWebhooks)
        .set({ url: `https://hook.test:${receiver.port}/rebind` })
        .where(eq(mailWebhooks.id, webhook.id));
      const asked: string[] = [];
      setResolverForTests((name) => {
        asked.push(name);
        return [{ address, family: 4 }];
      });
      const connections = receiver.connections;
      try {
        await event();
        await runOnce();
      } finally {
        setResolverForTests(null);
      }
      expect(asked).toContain("hook.test");
      expect(receiver.connections).toBe(connections);
      const [attempt] = await attemptsOf(webhook.id);
      expect(attempt).toMatchObject({ ok: false, statusCode: null, error: "hook.test resolves to a blocked address" });
      const [d] = await deliveriesOf(webhook.id);
      expect(d).toMatchObject({ status: "pending", attempts: 1 });
      expect((await jobOf(d.id)).status).toBe("pending");
      await db.update(mailWebhooks).set({ enabled: false }).where(eq(mailWebhooks.id, webhook.id));
    }
  });

  it("switches off a webhook failing for 5 days and emails the owner", async () => {
    const sink = await startSink();
    relay.set({ SMTP_RELAY_URL: sink.url });
    try {
      const { webhook, path } = await hook([500]);
      const db = await getDb();
      // The run of failures began just over 5 days ago (rows set, as no test waits 5 days).
      await db
        .update(mailWebhooks)
        .set({ firstFailureAt: new Date(Date.now() - SUSTAINED_FAILURE_MS - 60_000), consecutiveFailures: 40 })
        .where(eq(mailWebhooks.id, webhook.id));
      await event();
      await event();
      const db2 = await getDb();
      const claimed = await claimJobs(db2, { limit: 2, kinds: [KIND] });
      expect(claimed).toHaveLength(2);
      // The first attempt ends the run of failures: the webhook goes off, the other delivery is cancelled under
      // its claimed job, which then sends nothing.
      expect(await runJob(db2, claimed[0])).toBe("failed");
      expect(await runJob(db2, claimed[1])).toBe("done");
      expect(await webhookRow(webhook.id)).toMatchObject({ enabled: false, disabledReason: "failing for 5 days", consecutiveFailures: 41 });
      expect(receiver.at(path)).toHaveLength(1);
      const deliveries = await deliveriesOf(webhook.id);
      expect(deliveries.map((d) => d.status).sort()).toEqual(["cancelled", "failed"]);
      // The log is kept.
      expect(await attemptsOf(webhook.id)).toMatchObject([{ ok: false, statusCode: 500 }]);
      // One notice, however many deliveries saw the end: queued to the owner and handed to the relay.
      const notices = await db
        .select()
        .from(mailMessages)
        .where(and(eq(mailMessages.projectId, seeded.project.id), sql`${mailMessages.to} ? ${OWNER_EMAIL}`));
      expect(notices).toHaveLength(1);
      expect(notices[0].subject).toBe("Webhook switched off: failing for 5 days");
      expect(notices[0].text).toContain(webhook.id);
      await drainJobs({ kinds: ["mail.deliver"] });
      const mail = await waitFor(async () => sink.received.find((m) => m.to.includes(OWNER_EMAIL)));
      expect(mail.raw.toString()).toContain("failing for 5 days");
    } finally {
      closeRelayTransports();
      relay.restore();
      await sink.close();
    }
  });

  it("sends nothing for a deleted webhook's delivery, even one already claimed when the delete came", async () => {
    const { webhook, path } = await hook();
    await event();
    await event();
    const [d1, d2] = await deliveriesOf(webhook.id);
    const db = await getDb();
    const [running] = await claimJobs(db, { limit: 1, kinds: [KIND] });
    await db.transaction((tx) => deleteWebhook(tx, { actor: seeded.actor, webhookId: webhook.id }));
    expect(await runJob(db, running)).toBe("done");
    await drainJobs({ kinds: [KIND] });
    expect(receiver.at(path)).toHaveLength(0);
    const after = await deliveriesOf(webhook.id);
    expect(after.map((d) => d.status)).toEqual(["cancelled", "cancelled"]);
    expect([d1.id, d2.id]).toContain((running.payload as { delivery_id: string }).delivery_id);
    expect(await attemptsOf(webhook.id)).toHaveLength(0);
  });

  it("resends a delivery as a new one with the same webhook-id, and sends a test event through the same job", async () => {
    const { webhook, path } = await hook();
    const eventId = await event();
    await drainJobs({ kinds: [KIND] });
    const [first] = await deliveriesOf(webhook.id);
    const db = await getDb();
    const resent = await db.transaction((tx) => resendDelivery(tx, { actor: seeded.actor, deliveryId: first.id }));
    expect(resent.eventId).toBe(eventId);
    expect(resent.deliveryId).not.toBe(first.id);
    await drainJobs({ kinds: [KIND] });
    expect(receiver.ids.get(eventId)).toBe(2);
    const [a, b] = receiver.at(path);
    expect([a.id, b.id]).toEqual([eventId, eventId]);
    expect(b.verifiedBy).toHaveLength(1);
    expect(JSON.parse(b.body).event_id).toBe(eventId);
    expect((await deliveriesOf(webhook.id)).map((d) => d.status)).toEqual(["delivered", "delivered"]);

    const test = await db.transaction((tx) => sendTestEvent(tx, { actor: seeded.actor, webhookId: webhook.id }));
    await drainJobs({ kinds: [KIND] });
    const [got] = receiver.at(path).filter((r) => r.id === test.eventId);
    expect(test.eventId).toMatch(/^mev_test_/);
    expect(got.verifiedBy).toHaveLength(1);
    expect(JSON.parse(got.body)).toMatchObject({ type: "event", event_type: "message.received", test: true, message: { subject: "Test event from Brynth" } });

    // Another key's view: NOT_FOUND, as every webhook read; an unknown delivery too.
    const other = await seedProject({ name: "Other" });
    await expect(db.transaction((tx) => resendDelivery(tx, { actor: other.actor, deliveryId: first.id }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(db.transaction((tx) => resendDelivery(tx, { actor: seeded.actor, deliveryId: "wdl_nope" }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    // A disabled webhook: resending would send nothing, so it says so.
    await db.update(mailWebhooks).set({ enabled: false, disabledReason: "410 Gone" }).where(eq(mailWebhooks.id, webhook.id));
    await expect(db.transaction((tx) => resendDelivery(tx, { actor: seeded.actor, deliveryId: first.id }))).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await deliveriesOf(webhook.id)).toHaveLength(3);
  });

  it("drops bodies from an event over the cap, and describes a message deleted since from the event itself", async () => {
    const fixture = await seedReceivedMail(seeded.project.id);
    const db = await getDb();
    const [ev] = await db
      .select()
      .from(mailEvents)
      .where(and(eq(mailEvents.projectId, seeded.project.id), eq(mailEvents.messageId, fixture.message)));
    const full = await buildEventPayload(db, ev, { maxBytes: 256 * 1024 });
    expect(full.truncated).toBeUndefined();
    expect(full.message?.text).toContain("The numbers are attached.");
    expect(full.message?.attachments).toMatchObject([{ filename: "q3.csv" }]);
    const small = await buildEventPayload(db, ev, { maxBytes: 1500 });
    expect(small).toMatchObject({ truncated: true, message: { text: null, html: null, subject: "Quarterly numbers" } });
    expect(fitPayload(full, 10 ** 7)).toBe(full);

    await db.delete(mailMessages).where(inArray(mailMessages.id, [fixture.message]));
    const gone = await buildEventPayload(db, ev, { maxBytes: 256 * 1024 });
    expect(gone.message).toMatchObject({ message_id: fixture.message, inbox_id: fixture.inbox, subject: "Quarterly numbers" });
    expect(gone.message?.text).toBeUndefined();
  });

  it("carries no mail content to a webhook whose creating key lacks message_read, and all of it to one that has it", async () => {
    const db = await getDb();
    const viaKey = async (scopes: string[]) => {
      const { key } = await seedKey(seeded.project.id, scopes, scopes.join(" "));
      const path = `/hook-${++n}`;
      const { webhook } = await createWebhook(db, {
        actor: keyActor({ ...key, projectName: seeded.project.name }, new Headers(), "mcp", null),
        webhook: { url: `http://${receiver.host}${path}`, eventTypes: ["message.received"] },
      });
      receiver.endpoint(path, { secrets: [openWebhookSecret(webhook)], answers: [200] });
      return path;
    };
    const blind = await viaKey(["webhook_create"]);
    const reader = await viaKey(["webhook_create", "message_read"]);
    const fixture = await seedReceivedMail(seeded.project.id);
    await drainJobs({ kinds: [KIND] });

    // Before: the key that may not read a message was POSTed its sender, subject, bodies and attachment names.
    const [withheld] = receiver.at(blind).map((r) => JSON.parse(r.body));
    expect(withheld).toMatchObject({ event_type: "message.received", content_withheld: true });
    expect(withheld.message).toEqual({
      inbox_id: fixture.inbox,
      thread_id: fixture.thread,
      message_id: fixture.message,
      labels: expect.arrayContaining(["received"]),
      timestamp: expect.any(String),
      direction: "inbound",
      send_status: null,
      send_reason: null,
      created_at: expect.any(String),
    });
    expect(withheld.thread).toEqual({
      inbox_id: fixture.inbox,
      thread_id: fixture.thread,
      labels: expect.any(Array),
      timestamp: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(withheld)).not.toMatch(/Quarterly|numbers are attached|ada@example\.org|q3\.csv/);

    const [full] = receiver.at(reader).map((r) => JSON.parse(r.body));
    expect(full.content_withheld).toBeUndefined();
    expect(full.message).toMatchObject({ subject: "Quarterly numbers", from: "Ada <ada@example.org>" });
    expect(full.message.text).toContain("The numbers are attached.");
  });

  it("queues nothing for a project without webhooks, and keeps the event when the webhook does not want its type", async () => {
    const { webhook } = await hook([200], ["message.sent"]);
    await event("message.received");
    expect(await deliveriesOf(webhook.id)).toHaveLength(0);
    await event("message.sent");
    expect(await deliveriesOf(webhook.id)).toMatchObject([{ eventType: "message.sent", status: "pending" }]);
    await drainJobs({ kinds: [KIND] });
    expect((await deliveriesOf(webhook.id))[0].status).toBe("delivered");
  });
});

describe("a queued delivery whose webhook is narrowed before it runs", () => {
  it("is not sent once the webhook no longer wants its event type", async () => {
    const { webhook, path } = await hook([200], ["message.received", "message.sent"]);
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
      createMailbox(tx, { actor: seeded.actor, username: `narrowed${Math.random().toString(36).slice(2, 8)}` } as never),
    );
    const { webhook, path } = await hook([200], ["message.received"]);
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
    const { webhook } = await hook([500], ["message.received"]);
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
