import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { cancelWebhookDeliveries } from "@/lib/mail/webhooks/statements";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";

/**
 * delete_webhook: marks it deleted (the delivery log stays for the owner) and cancels its pending deliveries, whose
 * queued jobs go with them; a delivery already running finds its delivery cancelled. Idempotent: deleting a
 * deleted webhook of one's own succeeds again and changes nothing.
 */
export async function deleteWebhook(
  db: Executor,
  opts: { actor: Actor; webhookId: string; inboxId?: string },
): Promise<{ webhookId: string; cancelled: number }> {
  const row = await findWebhook(db, { ...opts, withDeleted: true, lock: true });
  if (row.deletedAt) return { webhookId: row.id, cancelled: 0 };
  await db
    .update(mailWebhooks)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(mailWebhooks.projectId, opts.actor.projectId), eq(mailWebhooks.id, row.id)));
  const [res] = await cancelWebhookDeliveries(db, opts.actor.projectId, row.id, webhookDeliveryJob.kind);
  return { webhookId: row.id, cancelled: res?.cancelled ?? 0 };
}
