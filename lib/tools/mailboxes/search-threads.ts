import { searchThreads as searchThreadRows } from "@/lib/mail/threads/search-threads";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { toDate } from "@/lib/tools/fields";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { searchQueryField } from "@/lib/tools/mailboxes/label-filter";
import { afterField, beforeField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";
import { optionalInboxIdField, threadPage } from "@/lib/tools/mailboxes/thread-fields";

const NAME = "search_threads";

export const searchThreads = defineTool({
  name: NAME,
  family: "mailboxes",
  untrusted: true,
  scope: "message_read",
  description:
    "Full-text search over subject, participants and body; returns the conversations with a matching message, the most recent match first. Spam and trash are left out. Without `inboxId`: every inbox the key may read. Considers the newest 1,000 matching messages per page; a page may then hold fewer conversations than `limit`, or none, and still carry a `next_page_token`: follow it until it is null. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.",
  input: listInput({ inboxId: optionalInboxIdField, q: searchQueryField, before: beforeField, after: afterField }),
  output: budgetedOutput(threadPage),
  mcpBudget: { fix: () => `A smaller limit fits more of each item; GET /api/v1/threads/search returns the page in full (REST results are never shortened).` },
  annotations: { ...mailboxRead, title: "Search threads" },
  rest: { method: "GET", path: "/threads/search" },
  example: { q: "hello" },
  handler: async (ctx, input) => {
    const { rows, resume } = await searchThreadRows(ctx.db, {
      actor: ctx.actor,
      inboxId: input.inboxId,
      q: input.q,
      before: toDate(input.before),
      after: toDate(input.after),
      limit: input.limit + 1,
      page: pageAfter(NAME, ctx.actor, input),
    });
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows, resume);
    return { ...head, threads: items.map((r) => r.view) };
  },
});
