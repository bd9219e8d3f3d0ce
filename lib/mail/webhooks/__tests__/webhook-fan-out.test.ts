import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Executor, getDb, getHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { mailWebhookDeliveries } from "@/lib/db/schema/mail-webhooks";
import { fakeResolver, sendTo, waitFor } from "@/lib/mail/__tests__/helpers";
import { addDomain } from "@/lib/mail/domains/add-domain";
import { type DomainDns, checkDomainDns } from "@/lib/mail/domains/check-domain-dns";
import { dnsRecords } from "@/lib/mail/domains/dns-records";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { type SmtpListener, startSmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { recipientCache } from "@/lib/mail/inbound/recipient-cache";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { mayHaveWebhooks } from "@/lib/mail/webhooks/webhook-presence";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { createWebhookTool } from "@/lib/tools/mailboxes/create-webhook";
import { deleteWebhookTool } from "@/lib/tools/mailboxes/delete-webhook";
import { updateWebhookTool } from "@/lib/tools/mailboxes/update-webhook";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * The fan-out (design §2.9 Emission, D10): an inbound mail, sent with nodemailer to the real SMTP listener, makes
 * exactly one delivery and one mail.webhook job per matching webhook, in the mail's own transaction, and none for
 * webhooks filtered out by type, inbox, state or project.
 */

let listener: SmtpListener;
let p: Awaited<ReturnType<typeof projectWithKey>>;
let boxX: Awaited<ReturnType<typeof seedMailbox>>;
let boxY: Awaited<ReturnType<typeof seedMailbox>>;
const hooks: Record<string, string> = {};

const makeHook = async (name: string, request: Record<string, unknown>, actor = p.mcp) => {
  hooks[name] = (await call(createWebhookTool, actor, { request: { url: `https://hooks.example.com/${name}`, ...request } })).webhook_id;
};

async function deliveriesOf(eventId: string, db?: Executor) {
  return (db ?? (await getDb())).select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.eventId, eventId));
}

const nameOf = (webhookId: string) => Object.entries(hooks).find(([, id]) => id === webhookId)?.[0];

/** The mail event of the newest stored message to `mailboxId` from `from`. */
async function eventOfMail(mailboxId: string, subject: string) {
  const db = await getDb();
  const message = await waitFor(async () => {
    const [m] = await db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.mailboxId, mailboxId), eq(mailMessages.subject, subject)));
    return m;
  });
  const [event] = await db.select().from(mailEvents).where(eq(mailEvents.messageId, message.id));
  return { message, event };
}

beforeAll(async () => {
  p = await projectWithKey("Fan-out");
  boxX = await seedMailbox(p.project.id);
  boxY = await seedMailbox(p.project.id);
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    resolver: fakeResolver({ "sender.example": "v=spf1 ip4:127.0.0.1 -all" }),
  });
  await makeHook("all", { event_types: ["message.received"] });
  await makeHook("onlyX", { event_types: ["message.received", "message.sent"], inbox_ids: [boxX.id] });
  await makeHook("onlyY", { event_types: ["message.received"], inbox_ids: [boxY.id] });
  await makeHook("sentOnly", { event_types: ["message.sent"] });
  await makeHook("unauth", { event_types: ["message.received.unauthenticated"] });
  await makeHook("disabled", { event_types: ["message.received"], enabled: false });
  await makeHook("deleted", { event_types: ["message.received"] });
  await makeHook("domains", { event_types: ["domain.verified"] });
  await makeHook("domainsOfX", { event_types: ["domain.verified"], inbox_ids: [boxX.id] });
  await call(deleteWebhookTool, p.mcp, { webhookId: hooks.deleted });
  // Another project's webhook for every mailbox never hears of this project's mail.
  const other = await projectWithKey("Fan-out elsewhere");
  await makeHook("otherProject", { event_types: ["message.received"] }, other.mcp);
});
afterAll(async () => {
  await listener.close();
});

describe("webhook fan-out", () => {
  it("an inbound mail makes one delivery and one job per matching webhook, in the mail's own transaction", async () => {
    await waitFor(async () => recipientCache.get(boxX.address) !== undefined || (await sendProbe(boxX.address)));
    await sendTo(listener.port, { from: "ann@sender.example", to: boxX.address, subject: "Fan-out 1", text: "Hello X" });
    const { message, event } = await eventOfMail(boxX.id, "Fan-out 1");
    expect(event.type).toBe("message.received");
    const deliveries = await deliveriesOf(event.id);
    expect(deliveries.map((d) => nameOf(d.webhookId)).sort()).toEqual(["all", "onlyX"]);
    for (const d of deliveries) {
      expect(d).toMatchObject({ projectId: p.project.id, eventType: "message.received", status: "pending", attempts: 0 });
      expect(d.id).toMatch(/^wdl_[0-9a-f]{32}$/);
    }
    const queued = await (await getDb())
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, "mail.webhook"),
          inArray(
            jobs.dedupeKey,
            deliveries.map((d) => `whk:${d.id}`),
          ),
        ),
      );
    expect(queued).toHaveLength(2);
    for (const j of queued) {
      const d = deliveries.find((x) => `whk:${x.id}` === j.dedupeKey)!;
      expect(j).toMatchObject({ projectId: p.project.id, status: "pending", maxAttempts: webhookDeliveryJob.maxAttempts, payload: { delivery_id: d.id } });
      expect(webhookDeliveryJob.payload.parse(j.payload)).toEqual({ delivery_id: d.id });
      // now() is the transaction's start: equal stamps mean the message, its event, the deliveries and the jobs
      // were written by one transaction.
      expect(j.createdAt.getTime()).toBe(event.createdAt.getTime());
      expect(d.createdAt.getTime()).toBe(event.createdAt.getTime());
    }
    expect(event.messageId).toBe(message.id);
  });

  it("filters by type: an unauthenticated mail reaches only the webhook that asked for message.received.unauthenticated", async () => {
    await sendTo(listener.port, { from: "eve@nospf.example", to: boxY.address, subject: "Fan-out 2", text: "Hello Y" });
    const { event } = await eventOfMail(boxY.id, "Fan-out 2");
    expect(event.type).toBe("message.received.unauthenticated");
    expect((await deliveriesOf(event.id)).map((d) => nameOf(d.webhookId))).toEqual(["unauth"]);
    await sendTo(listener.port, { from: "ann@sender.example", to: boxY.address, subject: "Fan-out 3", text: "Hello Y" });
    const third = await eventOfMail(boxY.id, "Fan-out 3");
    expect((await deliveriesOf(third.event.id)).map((d) => nameOf(d.webhookId)).sort()).toEqual(["all", "onlyY"]);
  });

  it("writes nothing when the transaction rolls back; an event no webhook wants makes no delivery", async () => {
    const db = await getDb();
    let eventId = "";
    await expect(
      db.transaction(async (tx) => {
        eventId = await emitMailEvent(tx, {
          projectId: p.project.id,
          mailboxId: boxX.id,
          type: "message.received",
          messageId: null,
          threadId: null,
          summary: { from: "a@example.org", to: [boxX.address], subject: "rolled back", preview: null, labels: [] },
        });
        expect(await deliveriesOf(eventId, tx)).toHaveLength(2);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await deliveriesOf(eventId)).toEqual([]);
    expect(await db.select().from(mailEvents).where(eq(mailEvents.id, eventId))).toEqual([]);
    const quiet = await emitMailEvent(db, {
      projectId: p.project.id,
      mailboxId: boxX.id,
      type: "message.complained",
      messageId: null,
      threadId: null,
      summary: { from: null, to: [], subject: null, preview: null, labels: [] },
    });
    expect(await deliveriesOf(quiet)).toEqual([]);
  });

  it("a project's first webhook is fanned out to at once, also after events found it without one (webhook-presence)", async () => {
    const q = await projectWithKey("Presence");
    const box = await seedMailbox(q.project.id);
    const db = await getDb();
    const emit = (type: "message.received" | "message.sent") =>
      emitMailEvent(db, {
        projectId: q.project.id,
        mailboxId: box.id,
        type,
        messageId: null,
        threadId: null,
        summary: { from: null, to: [], subject: null, preview: null, labels: [] },
      });
    expect(await deliveriesOf(await emit("message.received"))).toEqual([]);
    // Remembered on the embedded database only; PostgreSQL always runs the fused statement.
    expect(await mayHaveWebhooks(db, q.project.id)).toBe((await getHandle()).kind !== "pglite");
    const made = await call(createWebhookTool, q.mcp, { request: { url: "https://hooks.example.com/p", event_types: ["message.received"], enabled: false } });
    expect(await deliveriesOf(await emit("message.received"))).toEqual([]);
    await call(updateWebhookTool, q.mcp, { webhookId: made.webhook_id, request: { enabled: true } });
    expect((await deliveriesOf(await emit("message.received"))).map((d) => d.webhookId)).toEqual([made.webhook_id]);
    expect(await mayHaveWebhooks(db, q.project.id)).toBe(true);
    // Another type than the webhook's: still none.
    expect(await deliveriesOf(await emit("message.sent"))).toEqual([]);
  });

  it("a domain's first successful DNS check emits domain.verified once, to the webhooks that watch every inbox", async () => {
    const db = await getDb();
    const domain = await db.transaction((tx) => addDomain(tx, { actor: p.actor, domain: `fan-${Date.now()}.example.com` }));
    const dkim = dnsRecords(domain).find((r) => r.kind === "DKIM")!;
    const dns: DomainDns = {
      resolveMx: async () => [],
      resolveTxt: async (name) => {
        if (name === dkim.name) return [[dkim.value]];
        throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
      },
    };
    for (let i = 0; i < 2; i++) await db.transaction((tx) => checkDomainDns(tx, { actor: p.actor, domainId: domain.id, dns }));
    const events = await db
      .select()
      .from(mailEvents)
      .where(and(eq(mailEvents.projectId, p.project.id), eq(mailEvents.type, "domain.verified")));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ mailboxId: null, summary: expect.objectContaining({ domain: domain.domain }) });
    expect((await deliveriesOf(events[0].id)).map((d) => nameOf(d.webhookId))).toEqual(["domains"]);
  });
});

/** RCPT acceptance for a mailbox made after the listener started: one harmless message to it. */
async function sendProbe(address: string): Promise<boolean> {
  try {
    await sendTo(listener.port, { from: "probe@sender.example", to: address, subject: "probe", text: "probe" });
    return true;
  } catch {
    return false;
  }
}
