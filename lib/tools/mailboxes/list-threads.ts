import { listThreads as listThreadRows } from "@/lib/mail/threads/list-threads";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { toDate } from "@/lib/tools/fields";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { includeFlagFields, labelsFilterField, substringsField } from "@/lib/tools/mailboxes/label-filter";
import { afterField, ascendingField, beforeField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";
import { optionalInboxIdField, threadPage } from "@/lib/tools/mailboxes/thread-fields";

const NAME = "list_threads";

export const listThreads = defineTool({
  name: NAME,
  family: "mailboxes",
  untrusted: true,
  scope: "message_read",
  description:
    "Lists conversations, latest activity first unless `ascending`, as summaries (subject, preview, participants, labels, message count); get_thread reads one. Without `inboxId`: every inbox the key may read. Spam, blocked, unauthenticated and trashed mail is hidden unless the matching include flag is set. `labels` must all match; `senders`, `recipients` and `subject` are case-insensitive substrings that must all match. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.",
  input: listInput({
    inboxId: optionalInboxIdField,
    ascending: ascendingField,
    before: beforeField,
    after: afterField,
    labels: labelsFilterField,
    ...includeFlagFields,
    senders: substringsField("senders"),
    recipients: substringsField("recipients"),
    subject: substringsField("subject"),
  }),
  output: budgetedOutput(threadPage),
  mcpBudget: { fix: () => `A smaller limit fits more of each item; GET /api/v1/threads returns the page in full (REST results are never shortened).` },
  annotations: { ...mailboxRead, title: "List threads" },
  // AgentMail's clients list an inbox's threads at /inboxes/{inbox_id}/threads (design Appendix B).
  rest: { method: "GET", path: "/threads", aliases: ["/inboxes/{inbox_id}/threads"] },
  example: { inboxId: "{{inbox}}" },
  handler: async (ctx, input) => {
    const rows = await listThreadRows(ctx.db, {
      actor: ctx.actor,
      filter: { ...input, before: toDate(input.before), after: toDate(input.after) },
      limit: input.limit + 1,
      ascending: input.ascending,
      page: pageAfter(NAME, ctx.actor, input),
    });
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, threads: items.map((r) => r.view) };
  },
});
