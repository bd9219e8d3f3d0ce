import { z } from "zod";
import { openWebhookHeaders } from "@/lib/mail/webhooks/webhook-headers";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { webhookIdField, webhookInboxIdField } from "@/lib/tools/mailboxes/webhook-fields";

export const webhookHeadersOutput = z.object({
  webhookId: z.string(),
  headers: z.record(z.string(), z.string()).describe("The custom headers sent with every delivery, as set."),
});

/** What a ledger entry keeps of a webhook's headers: their names. */
export const webhookHeaderNames = (out: z.output<typeof webhookHeadersOutput>) => ({ webhookId: out.webhookId, headerNames: Object.keys(out.headers) });

export const getWebhookHeadersTool = defineTool({
  name: "get_webhook_headers",
  family: "mailboxes",
  scope: "webhook_read",
  description: "Returns the custom headers added to every delivery of a webhook this key created, e.g. an Authorization header for the receiver.",
  input: z.object({ webhookId: webhookIdField, inboxId: webhookInboxIdField }).strict(),
  output: webhookHeadersOutput,
  annotations: { ...mailboxRead, title: "Get a webhook's headers" },
  rest: { method: "GET", path: "/webhooks/{webhook_id}/headers" },
  // Header values are secrets (tokens), guessed from a digest offline: the entry digests their names only, as the
  // owner routes' do (found by helper-105).
  ledgerOutput: webhookHeaderNames,
  handler: async (ctx, input) => {
    const row = await findWebhook(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = row.id;
    return { webhookId: row.id, headers: openWebhookHeaders(row) };
  },
});
