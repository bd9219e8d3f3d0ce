import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailWebhooks, type MailWebhook } from "@/lib/db/schema/mail-webhooks";
import type { MailEventType } from "@/lib/mail/events/event-types";
import { disabledBy } from "@/lib/mail/webhooks/create-webhook";
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
 * replaces the mailboxes (empty: every mailbox); turning a webhook back on clears why it was off and its run of
 * failures, so the next failure starts a fresh count toward automatic disabling.
 */
export async function updateWebhook(db: Executor, opts: { actor: Actor; webhookId: string; inboxId?: string; changes: WebhookChanges }): Promise<MailWebhook> {
  const { actor, changes } = opts;
  const row = await findWebhook(db, { actor, webhookId: opts.webhookId, inboxId: opts.inboxId, lock: true });
  const set: Partial<typeof mailWebhooks.$inferInsert> = {};
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.eventTypes?.length) set.eventTypes = [...new Set(changes.eventTypes)];
  if (changes.inboxIds !== undefined) set.inboxIds = await webhookInboxIds(db, actor, changes.inboxIds);
  if (changes.enabled === true && !row.enabled) Object.assign(set, { enabled: true, disabledReason: null, consecutiveFailures: 0, firstFailureAt: null });
  if (changes.enabled === false && row.enabled) Object.assign(set, { enabled: false, disabledReason: disabledBy(actor) });
  if (Object.keys(set).length === 0) return row;
  webhooksChanged(actor.projectId);
  const [updated] = await db
    .update(mailWebhooks)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(mailWebhooks.projectId, actor.projectId), eq(mailWebhooks.id, row.id)))
    .returning();
  return updated;
}
