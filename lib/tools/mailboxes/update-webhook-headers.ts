import { z } from "zod";
import { updateWebhookHeaders } from "@/lib/mail/webhooks/update-webhook-headers";
import { removeHeadersField, webhookHeadersField } from "@/lib/mail/webhooks/webhook-fields";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxUpdate } from "@/lib/tools/mailboxes/annotations";
import { webhookHeaderNames, webhookHeadersOutput } from "@/lib/tools/mailboxes/get-webhook-headers";
import { snakeRequest, webhookIdField, webhookInboxIdField } from "@/lib/tools/mailboxes/webhook-fields";

export const updateWebhookHeadersTool = defineTool({
  name: "update_webhook_headers",
  family: "mailboxes",
  scope: "webhook_update",
  description:
    'Sets or removes the custom headers sent with every delivery of a webhook this key created. `request` is the REST body in snake_case: `{"headers": {"Authorization": "Bearer …"}, "remove_headers": ["X-Old"]}`. A name already set (in any case) is replaced; removing an absent one succeeds. At most 20 headers, values up to 1 KB without CR or LF, 8 KB in all; Host, Content-Type, Content-Length, Connection, Transfer-Encoding, Upgrade and webhook-* are reserved.',
  input: z
    .object({
      webhookId: webhookIdField,
      inboxId: webhookInboxIdField,
      request: snakeRequest({ headers: webhookHeadersField.optional(), remove_headers: removeHeadersField.optional() }).describe(
        "The changes, as the REST body: snake_case keys.",
      ),
    })
    .strict(),
  output: webhookHeadersOutput,
  annotations: { ...mailboxUpdate, title: "Update a webhook's headers" },
  rest: { method: "PATCH", path: "/webhooks/{webhook_id}/headers", body: "request" },
  // Header values are secrets: the entry digests their names only, going in and coming back (as get_webhook_headers).
  ledgerInput: ({ request, ...input }) => ({
    ...input,
    request: { header_names: Object.keys(request.headers ?? {}), remove_headers: request.remove_headers ?? [] },
  }),
  ledgerOutput: webhookHeaderNames,
  handler: async (ctx, input) => {
    const out = await updateWebhookHeaders(ctx.db, {
      actor: ctx.actor,
      webhookId: input.webhookId,
      inboxId: input.inboxId,
      headers: input.request.headers,
      removeHeaders: input.request.remove_headers,
      field: (name) => `request.headers.${name}`,
    });
    ctx.subject = out.webhookId;
    return out;
  },
});
