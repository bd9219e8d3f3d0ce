import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { mailWebhookDeliveries } from "@/lib/db/schema/mail-webhooks";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { unwantedBecause } from "@/lib/mail/webhooks/webhook-wants";
import { isTestEventId } from "@/lib/mail/webhooks/send-test-event";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";

const deliveryNotFound = (id: string) =>
  new AppError("NOT_FOUND", `Delivery ${id} was not found.`, { fix: "Pick the delivery from the webhook's delivery log." });

/**
 * "Resend" in the delivery log: a new delivery of the same event to the same webhook, with a job of its own and a
 * fresh set of attempts. It carries the same `webhook-id` (the event's id), so a receiver that already took the
 * event can drop it. Any delivery may be resent (delivered, failed, cancelled), while its event is kept (7 days);
 * the webhook must still exist, and a disabled one must be enabled first (its job would otherwise cancel it).
 */
export async function resendDelivery(tx: Executor, opts: { actor: Actor; deliveryId: string }): Promise<{ deliveryId: string; eventId: string }> {
  const [original] = await tx
    .select()
    .from(mailWebhookDeliveries)
    .where(and(eq(mailWebhookDeliveries.projectId, opts.actor.projectId), eq(mailWebhookDeliveries.id, opts.deliveryId)));
  if (!original) throw deliveryNotFound(opts.deliveryId);
  // The same rule as every webhook read: a key resends only for the webhooks it created (NOT_FOUND otherwise).
  const webhook = await findWebhook(tx, { actor: opts.actor, webhookId: original.webhookId }).catch(() => {
    throw deliveryNotFound(opts.deliveryId);
  });
  const test = isTestEventId(original.eventId);
  if (!webhook.enabled && !test) {
    throw new AppError("CONFLICT", `Webhook ${webhook.id} is disabled (${webhook.disabledReason ?? "switched off"}); nothing would be sent.`, {
      fix: "Enable the webhook, then resend.",
    });
  }
  if (!test) {
    const [event] = await tx
      .select({ type: mailEvents.type, mailboxId: mailEvents.mailboxId })
      .from(mailEvents)
      .where(and(eq(mailEvents.projectId, original.projectId), eq(mailEvents.id, original.eventId)));
    if (!event) {
      throw new AppError("NOT_FOUND", `Event ${original.eventId} is no longer kept (events are kept 7 days), so it cannot be resent.`, {
        fix: "Read the current state with the mailbox tools instead.",
      });
    }
    const unwanted = unwantedBecause(webhook, event);
    if (unwanted) {
      throw new AppError("CONFLICT", `Nothing would be sent: ${unwanted}.`, { fix: "Add the event type or the inbox back to the webhook, then resend." });
    }
  }
  const id = newId("wdl");
  await tx.insert(mailWebhookDeliveries).values({
    id,
    projectId: original.projectId,
    webhookId: original.webhookId,
    eventId: original.eventId,
    eventType: original.eventType,
  });
  await enqueueJob(tx, webhookDeliveryJob, { delivery_id: id }, { projectId: original.projectId, dedupeKey: `whk:${id}` });
  return { deliveryId: id, eventId: original.eventId };
}
