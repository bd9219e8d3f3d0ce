import { z } from "zod";
import { listListEntries } from "@/lib/mail/lists/list-list-entries";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { directionField, listEntryOutput, listEntryView, listInboxIdField, listTypeField } from "@/lib/tools/mailboxes/list-entry-fields";
import { listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";

const NAME = "list_list_entries";

export const listListEntriesTool = defineTool({
  name: NAME,
  family: "mailboxes",
  scope: "list_entry_read",
  description:
    "Lists one allow or block list, newest entries first: an inbox's (`inboxId`) or, without it, the project's global list (not for keys restricted to one inbox). The inbox's own list is consulted before the global one, and the most specific entry wins. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.",
  input: listInput({ inboxId: listInboxIdField, direction: directionField, type: listTypeField }),
  // Under the MCP budget: 100 entries with 500-character reasons are about 60 KB.
  output: budgetedOutput(
    z.object({
      count: z.number().int().describe("Entries on this page."),
      limit: z.number().int(),
      nextPageToken: z.string().nullable().describe("Pass as `pageToken` for the next page; null on the last page."),
      entries: z.array(listEntryOutput),
    }),
  ),
  mcpBudget: {
    fix: (input) =>
      `A smaller limit fits more of each entry; GET /api/v1/lists/${input.direction}/${input.type} returns the page in full (REST results are never shortened).`,
  },
  annotations: { ...mailboxRead, title: "List allow/block entries" },
  rest: { method: "GET", path: "/lists/{direction}/{type}" },
  example: { inboxId: "{{inbox}}", direction: "receive", type: "block" },
  handler: async (ctx, input) => {
    const { mailboxId, rows } = await listListEntries(ctx.db, { actor: ctx.actor, ...input, limit: input.limit + 1, after: pageAfter(NAME, ctx.actor, input) });
    ctx.subject = mailboxId;
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, entries: items.map(listEntryView) };
  },
});
