import { listMessages as listMessageRows } from "@/lib/mail/messages/list-messages";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { toDate } from "@/lib/tools/fields";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { includeFlagFields, labelsFilterField, substringsField } from "@/lib/tools/mailboxes/label-filter";
import { afterField, ascendingField, beforeField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";
import { messagePage } from "@/lib/tools/mailboxes/message-fields";

const NAME = "list_messages";

export const listMessages = defineTool({
  name: NAME,
  family: "mailboxes",
  untrusted: true,
  scope: "message_read",
  description:
    "Lists an inbox's messages, newest first unless `ascending`: metadata, preview and attachment metadata, no bodies (get_message reads one in full). Spam, blocked, unauthenticated and trashed mail is hidden unless the matching include flag is set. `labels` must all match; `from`, `to` and `subject` are case-insensitive substrings that must all match. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.",
  input: listInput({
    inboxId: inboxIdField,
    ascending: ascendingField,
    before: beforeField,
    after: afterField,
    labels: labelsFilterField,
    ...includeFlagFields,
    from: substringsField("sender (address or name)"),
    to: substringsField("To recipients"),
    subject: substringsField("subject"),
  }),
  output: budgetedOutput(messagePage),
  mcpBudget: {
    fix: (input) =>
      `A smaller limit fits more of each item; GET /api/v1/inboxes/${input.inboxId}/messages returns the page in full (REST results are never shortened).`,
  },
  annotations: { ...mailboxRead, title: "List messages" },
  rest: { method: "GET", path: "/inboxes/{inbox_id}/messages" },
  example: { inboxId: "{{inbox}}" },
  handler: async (ctx, input) => {
    const rows = await listMessageRows(ctx.db, {
      actor: ctx.actor,
      filter: { ...input, before: toDate(input.before), after: toDate(input.after) },
      limit: input.limit + 1,
      ascending: input.ascending,
      page: pageAfter(NAME, ctx.actor, input),
    });
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, messages: items.map((r) => r.view) };
  },
});
