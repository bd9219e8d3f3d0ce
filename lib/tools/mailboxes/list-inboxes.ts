import { z } from "zod";
import { inboxView } from "@/lib/mail/mailboxes/inbox-view";
import { listMailboxes } from "@/lib/mail/mailboxes/list-mailboxes";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxOutput } from "@/lib/tools/mailboxes/inbox-fields";
import { ascendingField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";

const NAME = "list_inboxes";

/** Under the MCP budget: 100 inboxes with their metadata (up to 8 KB each) are far more than 19,000 bytes. */
export const inboxPage = budgetedOutput(
  z.object({
    count: z.number().int().describe("Inboxes on this page."),
    limit: z.number().int(),
    nextPageToken: z.string().nullable().describe("Pass as `pageToken` for the next page; null on the last page."),
    inboxes: z.array(inboxOutput),
  }),
);

export const listInboxes = defineTool({
  name: NAME,
  family: "mailboxes",
  scope: "inbox_read",
  description:
    "Lists the project's inboxes (a key restricted to one inbox sees only that one), newest first unless `ascending`. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken` for the next page.",
  input: listInput({ ascending: ascendingField }),
  output: inboxPage,
  mcpBudget: { fix: () => "A smaller limit fits more of each inbox; GET /api/v1/inboxes returns the page in full (REST results are never shortened)." },
  annotations: { ...mailboxRead, title: "List inboxes" },
  rest: { method: "GET", path: "/inboxes" },
  example: {},
  handler: async (ctx, input) => {
    const rows = await listMailboxes(ctx.db, {
      actor: ctx.actor,
      limit: input.limit + 1,
      ascending: input.ascending,
      after: pageAfter(NAME, ctx.actor, input),
    });
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, inboxes: items.map(inboxView) };
  },
});
