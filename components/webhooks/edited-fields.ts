import type { WebhookFormInput } from "@/components/webhooks/webhook-form-dialog";

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * What an edit changed against the webhook as the form opened with it. Sending every field put back what an agent
 * had changed meanwhile (update_webhook) in fields the owner never touched: its new URL, an event type, the one
 * mailbox it was narrowed to.
 */
export function editedFields(was: WebhookFormInput, now: WebhookFormInput): Partial<WebhookFormInput> {
  return {
    ...(now.url !== was.url ? { url: now.url } : {}),
    ...(sameSet(now.eventTypes, was.eventTypes) ? {} : { eventTypes: now.eventTypes }),
    ...(sameSet(now.inboxIds, was.inboxIds) ? {} : { inboxIds: now.inboxIds }),
  };
}
