import { searchMessages as searchMessageRows } from "@/lib/mail/messages/search-messages";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { toDate } from "@/lib/tools/fields";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { searchQueryField } from "@/lib/tools/mailboxes/label-filter";
import { afterField, beforeField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";
import { messagePage } from "@/lib/tools/mailboxes/message-fields";

const NAME = "search_messages";

export const searchMessages = defineTool({
  name: NAME,
  family: "mailboxes",
  untrusted: true,
  scope: "message_read",
  description:
    "Full-text search over an inbox's messages (subject, participants, body), newest first: metadata and preview, no bodies (get_message reads one). Spam and trash are left out. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.",
  input: listInput({ inboxId: inboxIdField, q: searchQueryField, before: beforeField, after: afterField }),
  output: budgetedOutput(messagePage),
  mcpBudget: {
    fix: (input) =>
      `A smaller limit fits more of each item; GET /api/v1/inboxes/${input.inboxId}/messages/search returns the page in full (REST results are never shortened).`,
  },
  annotations: { ...mailboxRead, title: "Search messages" },
  rest: { method: "GET", path: "/inboxes/{inbox_id}/messages/search" },
  example: { inboxId: "{{inbox}}", q: "hello" },
  handler: async (ctx, input) => {
    const rows = await searchMessageRows(ctx.db, {
      actor: ctx.actor,
      inboxId: input.inboxId,
      q: input.q,
      before: toDate(input.before),
      after: toDate(input.after),
      limit: input.limit + 1,
      page: pageAfter(NAME, ctx.actor, input),
    });
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, messages: items.map((r) => r.view) };
  },
});
