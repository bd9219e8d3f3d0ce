import { z } from "zod";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { webhookIdField, webhookInboxIdField, webhookOutput, webhookView } from "@/lib/tools/mailboxes/webhook-fields";

export const getWebhookTool = defineTool({
  name: "get_webhook",
  family: "mailboxes",
  scope: "webhook_read",
  description:
    "Returns one webhook this key created: URL, event types, inboxes, whether it is enabled (and why not), and its `whsec_` signing secret. Another key's webhook is NOT_FOUND, like one that does not exist.",
  input: z.object({ webhookId: webhookIdField, inboxId: webhookInboxIdField }).strict(),
  output: webhookOutput,
  annotations: { ...mailboxRead, title: "Get a webhook" },
  rest: { method: "GET", path: "/webhooks/{webhook_id}" },
  handler: async (ctx, input) => {
    const row = await findWebhook(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = row.id;
    return webhookView(row);
  },
});
