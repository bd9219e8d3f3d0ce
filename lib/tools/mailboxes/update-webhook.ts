import { z } from "zod";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { eventTypesField, inboxIdsField, webhookUrlField } from "@/lib/mail/webhooks/webhook-fields";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxUpdate } from "@/lib/tools/mailboxes/annotations";
import { snakeRequest, webhookIdField, webhookInboxIdField, webhookOutput, webhookView } from "@/lib/tools/mailboxes/webhook-fields";

export const updateWebhookTool = defineTool({
  name: "update_webhook",
  family: "mailboxes",
  scope: "webhook_update",
  description:
    "Changes a webhook this key created; omitted fields stay as they are. `request` is the REST body in snake_case: `url` (checked again), `event_types` (a non-empty list replaces the old one), `inbox_ids` (replaces the inboxes; empty: every inbox) and `enabled` (turning it back on clears its disabled reason and failure count).",
  input: z
    .object({
      webhookId: webhookIdField,
      inboxId: webhookInboxIdField,
      request: snakeRequest({
        url: webhookUrlField.optional(),
        event_types: eventTypesField.optional(),
        inbox_ids: inboxIdsField.optional(),
        enabled: z.boolean().optional().describe("false stops deliveries; true resumes them."),
      }).describe("The changes, as the REST body: snake_case keys."),
    })
    .strict(),
  output: webhookOutput,
  annotations: { ...mailboxUpdate, title: "Update a webhook" },
  rest: { method: "PATCH", path: "/webhooks/{webhook_id}", body: "request" },
  handler: async (ctx, input) => {
    const r = input.request;
    const row = await updateWebhook(ctx.db, {
      actor: ctx.actor,
      webhookId: input.webhookId,
      inboxId: input.inboxId,
      changes: { url: r.url, eventTypes: r.event_types, inboxIds: r.inbox_ids, enabled: r.enabled },
    });
    ctx.subject = row.id;
    return webhookView(row);
  },
});
