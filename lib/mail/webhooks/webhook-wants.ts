import type { MailWebhook } from "@/lib/db/schema/mail-webhooks";

/**
 * Why a webhook, as it is now, does not want an event, or null when it does: the type must be one it subscribes
 * to, and the mailbox one it watches (an empty list watches every mailbox). The test insertMailEvent's fan-out
 * makes (mail/events/statements.ts), asked again of a delivery queued before the webhook was narrowed.
 */
export function unwantedBecause(webhook: Pick<MailWebhook, "eventTypes" | "inboxIds">, event: { type: string; mailboxId: string | null }): string | null {
  if (!webhook.eventTypes.includes(event.type)) return `the webhook no longer subscribes to ${event.type}`;
  const watched = webhook.inboxIds.length === 0 || (event.mailboxId !== null && webhook.inboxIds.includes(event.mailboxId));
  return watched ? null : `the webhook no longer watches inbox ${event.mailboxId}`;
}
