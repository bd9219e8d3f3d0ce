import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { mailWebhookDeliveries, type MailWebhookDelivery } from "@/lib/db/schema/mail-webhooks";
import { newId, randomBase62 } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import type { EventPayload } from "@/lib/mail/events/event-payload";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";

/** Test events have ids of their own, so a receiver (and every later attempt or resend) can tell them apart. */
const TEST_EVENT_PREFIX = "mev_test_";
export const isTestEventId = (id: string) => id.startsWith(TEST_EVENT_PREFIX);

/**
 * "Send test event" (the owner's Webhooks screen): a made-up event of a type the webhook wants (`message.received`
 * when it wants that) delivered through the same job as real ones: signed, retried, logged. It describes nothing
 * stored, says `test: true`, and its `event_id`/`webhook-id` starts with `mev_test_`. A disabled webhook may be
 * tested (to check a fixed endpoint before enabling it again); a deleted one is NOT_FOUND.
 */
export async function sendTestEvent(
  tx: Executor,
  opts: { actor: Actor; webhookId: string },
): Promise<{ deliveryId: string; eventId: string; eventType: string }> {
  const webhook = await findWebhook(tx, { actor: opts.actor, webhookId: opts.webhookId });
  const eventType = webhook.eventTypes.includes("message.received") ? "message.received" : (webhook.eventTypes[0] ?? "message.received");
  const delivery = {
    id: newId("wdl"),
    projectId: webhook.projectId,
    webhookId: webhook.id,
    eventId: `${TEST_EVENT_PREFIX}${randomBase62(22)}`,
    eventType,
  };
  await tx.insert(mailWebhookDeliveries).values(delivery);
  await enqueueJob(tx, webhookDeliveryJob, { delivery_id: delivery.id }, { projectId: webhook.projectId, dedupeKey: `whk:${delivery.id}` });
  return { deliveryId: delivery.id, eventId: delivery.eventId, eventType };
}

/**
 * The payload of a test delivery, made again on each attempt from the delivery alone: the same every time, in the
 * shape of a real event of its type. The inbox is one of the project's (the first the webhook watches, else the
 * project address), so a receiver's routing by inbox can be tried too.
 */
export async function testEventPayload(db: Executor, d: MailWebhookDelivery, watched: readonly string[]): Promise<EventPayload> {
  const [inbox] = await db
    .select({ id: mailboxes.id, address: mailboxes.address })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, d.projectId), isNull(mailboxes.deletedAt), watched[0] ? eq(mailboxes.id, watched[0]) : eq(mailboxes.isDefault, true)))
    .limit(1);
  const at = d.createdAt.toISOString();
  const base: EventPayload = { type: "event", event_type: d.eventType, event_id: d.eventId, created_at: at, test: true };
  const subject = "Test event from Brynth";
  const text = "This is a test event sent from the Webhooks screen. It describes no stored message.";
  if (d.eventType.startsWith("domain.")) return { ...base, domain: { domain: "example.com" } };
  if (d.eventType.startsWith("draft.")) {
    return {
      ...base,
      draft: { draft_id: "drf_test", inbox_id: inbox?.id ?? null, to: ["someone@example.com"], subject, text, send_status: d.eventType.slice(6) },
    };
  }
  const received = d.eventType.startsWith("message.received");
  return {
    ...base,
    message: {
      inbox_id: inbox?.id ?? null,
      thread_id: "thd_test",
      message_id: "msg_test",
      labels: [received ? "received" : "sent"],
      timestamp: at,
      from: received ? "Test Sender <sender@example.com>" : (inbox?.address ?? null),
      to: [received ? (inbox?.address ?? "inbox@example.com") : "someone@example.com"],
      subject,
      preview: text,
      text,
      attachments: [],
      direction: received ? "inbound" : "outbound",
      created_at: at,
    },
  };
}
