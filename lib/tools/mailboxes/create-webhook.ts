import { z } from "zod";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { eventTypesField, inboxIdsField, webhookClientIdField, webhookUrlField } from "@/lib/mail/webhooks/webhook-fields";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { snakeRequest, webhookInboxIdField, webhookOutput, webhookView } from "@/lib/tools/mailboxes/webhook-fields";

export const createWebhookTool = defineTool({
  name: "create_webhook",
  family: "mailboxes",
  scope: "webhook_create",
  description:
    'Creates a webhook: Brynth POSTs each matching mail event to `request.url`, signed in the Standard Webhooks format (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the returned `whsec_` secret, retrying failures for about a day; a 410 answer disables it. `request` is the REST body in snake_case: `{"url": "https://…", "event_types": ["message.received"], "inbox_ids": [...], "client_id": "…", "enabled": true}`. Without inbox_ids it watches `inboxId` if given, else every inbox the key may read. A key may have 20 webhooks; the same client_id returns the first webhook again.',
  input: z
    .object({
      inboxId: webhookInboxIdField.describe("An inbox (id or address) to watch when request.inbox_ids names none."),
      request: snakeRequest({
        url: webhookUrlField,
        event_types: eventTypesField,
        inbox_ids: inboxIdsField.optional(),
        client_id: webhookClientIdField.optional(),
        enabled: z.boolean().optional().describe("Default true; false creates it switched off."),
      }).describe("The webhook, as the REST body: snake_case keys."),
    })
    .strict(),
  output: webhookOutput,
  annotations: { ...mailboxCreate, title: "Create a webhook" },
  rest: { method: "POST", path: "/webhooks", body: "request" },
  example: { inboxId: "{{inbox}}", request: { url: "https://hooks.example.com/brynth", event_types: ["message.received"] } },
  handler: async (ctx, input) => {
    const r = input.request;
    const { webhook } = await createWebhook(ctx.db, {
      actor: ctx.actor,
      inboxId: input.inboxId,
      webhook: { url: r.url, eventTypes: r.event_types, inboxIds: r.inbox_ids, clientId: r.client_id, enabled: r.enabled },
    });
    ctx.subject = webhook.id;
    return webhookView(webhook);
  },
});
