import { z } from "zod";
import { deleteWebhook } from "@/lib/mail/webhooks/delete-webhook";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { webhookIdField, webhookInboxIdField } from "@/lib/tools/mailboxes/webhook-fields";

export const deleteWebhookTool = defineTool({
  name: "delete_webhook",
  family: "mailboxes",
  scope: "webhook_delete",
  description: "Deletes a webhook this key created: no more deliveries, and the ones still waiting are cancelled. Deleting it again succeeds too.",
  input: z.object({ webhookId: webhookIdField, inboxId: webhookInboxIdField }).strict(),
  output: z.object({
    webhookId: z.string(),
    deleted: z.literal(true).describe("Always true: the webhook is deleted (now or before this call)."),
  }),
  annotations: { ...mailboxDelete, title: "Delete a webhook" },
  rest: { method: "DELETE", path: "/webhooks/{webhook_id}" },
  handler: async (ctx, input) => {
    const { webhookId } = await deleteWebhook(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = webhookId;
    return { webhookId, deleted: true as const };
  },
});
