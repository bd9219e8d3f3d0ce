import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailWebhooks, type MailWebhook } from "@/lib/db/schema/mail-webhooks";
import type { MailEventType } from "@/lib/mail/events/event-types";
import { disabledBy } from "@/lib/mail/webhooks/create-webhook";
import { webhookRecovered } from "@/lib/mail/webhooks/webhook-breaker";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { creatorMailbox } from "@/lib/mail/webhooks/webhook-creators";
import { webhookInboxIds } from "@/lib/mail/webhooks/webhook-inboxes";
import { webhooksChanged } from "@/lib/mail/webhooks/webhook-presence";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";

export interface WebhookChanges {
  url?: string;
  eventTypes?: readonly MailEventType[];
  inboxIds?: readonly string[];
  enabled?: boolean;
}

/**
 * update_webhook: only the fields given change. A non-empty `eventTypes` replaces the list (AgentMail); `inboxIds`
 * replaces the mailboxes (empty: every mailbox; a webhook of a key restricted to one mailbox watches that one, whoever
 * edits it); turning a webhook back on clears why it was off and its run of
 * failures, so the next failure starts a fresh count toward automatic disabling; so does a new URL, whose waiting
 * deliveries (webhook-breaker.ts) then go at once.
 */
export async function updateWebhook(db: Executor, opts: { actor: Actor; webhookId: string; inboxId?: string; changes: WebhookChanges }): Promise<MailWebhook> {
  const { actor, changes } = opts;
  const row = await findWebhook(db, { actor, webhookId: opts.webhookId, inboxId: opts.inboxId, lock: true });
  const set: Partial<typeof mailWebhooks.$inferInsert> = {};
  // Another URL is another endpoint: the old one's run of failures (and its breaker) does not follow it.
  const moved = changes.url !== undefined && changes.url !== row.url;
  if (changes.url !== undefined) set.url = changes.url;
  if (moved) Object.assign(set, { consecutiveFailures: 0, firstFailureAt: null });
  if (changes.eventTypes?.length) set.eventTypes = [...new Set(changes.eventTypes)];
  if (changes.inboxIds !== undefined) {
    const creator = actor.mailboxId ? null : await creatorMailbox(db, actor.projectId, row.keyId);
    set.inboxIds = await webhookInboxIds(db, actor, changes.inboxIds, creator);
  }
  if (changes.enabled === true && !row.enabled) Object.assign(set, { enabled: true, disabledReason: null, consecutiveFailures: 0, firstFailureAt: null });
  if (changes.enabled === false && row.enabled) Object.assign(set, { enabled: false, disabledReason: disabledBy(actor) });
  if (Object.keys(set).length === 0) return row;
  webhooksChanged(actor.projectId);
  const [updated] = await db
    .update(mailWebhooks)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(mailWebhooks.projectId, actor.projectId), eq(mailWebhooks.id, row.id)))
    .returning();
  // Deliveries waiting out the old endpoint's failures go to the new one now.
  if (moved && row.consecutiveFailures > 0) await webhookRecovered(db, updated, webhookDeliveryJob.kind);
  return updated;
}
