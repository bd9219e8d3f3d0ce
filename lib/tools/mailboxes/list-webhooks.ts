import { z } from "zod";
import { listWebhooks } from "@/lib/mail/webhooks/list-webhooks";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { ascendingField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";
import { webhookInboxIdField, webhookOutput, webhookView } from "@/lib/tools/mailboxes/webhook-fields";

const NAME = "list_webhooks";

export const listWebhooksTool = defineTool({
  name: NAME,
  family: "mailboxes",
  scope: "webhook_read",
  description:
    "Lists the webhooks this key created (never another key's or the owner's), newest first, each with its URL, event types, inboxes, state and signing secret. With `inboxId`, only the webhooks scoped to that inbox (it is in their `inbox_ids`); one with empty `inbox_ids` watches every inbox and is listed without `inboxId`. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.",
  input: listInput({
    inboxId: webhookInboxIdField.describe("Only webhooks scoped to this inbox (id or address): it is in their `inbox_ids`."),
    ascending: ascendingField,
  }),
  // Under the MCP budget: a key's 20 webhooks with 2 KB URLs and every event type are about 60 KB.
  output: budgetedOutput(
    z.object({
      count: z.number().int().describe("Webhooks on this page."),
      limit: z.number().int(),
      nextPageToken: z.string().nullable().describe("Pass as `pageToken` for the next page; null on the last page."),
      webhooks: z.array(webhookOutput),
    }),
  ),
  mcpBudget: {
    fix: () => "A smaller limit fits each webhook whole; GET /api/v1/webhooks returns the page in full (REST results are never shortened).",
  },
  annotations: { ...mailboxRead, title: "List webhooks" },
  rest: { method: "GET", path: "/webhooks" },
  example: { inboxId: "{{inbox}}" },
  handler: async (ctx, input) => {
    const { mailboxId, rows } = await listWebhooks(ctx.db, { actor: ctx.actor, ...input, limit: input.limit + 1, after: pageAfter(NAME, ctx.actor, input) });
    ctx.subject = mailboxId;
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, webhooks: items.map(webhookView) };
  },
});
