import { z } from "zod";
import { inboxView } from "@/lib/mail/mailboxes/inbox-view";
import { listMailboxes } from "@/lib/mail/mailboxes/list-mailboxes";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { ascendingField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { inboxPage } from "@/lib/tools/mailboxes/list-inboxes";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";

const NAME = "search_inboxes";

export const searchInboxes = defineTool({
  name: NAME,
  family: "mailboxes",
  scope: "inbox_read",
  description:
    "Finds inboxes whose address, domain or a word of the display name starts with `q` (2 to 256 characters, any case), newest first unless `ascending`. A key restricted to one inbox finds only that one. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.",
  input: listInput({
    q: z.string().trim().min(2).max(256).describe("The start of an address, a domain or a word of the display name, e.g. `support` or `acme.com`."),
    ascending: ascendingField,
  }),
  output: inboxPage,
  mcpBudget: {
    fix: () => "A smaller limit fits more of each inbox; GET /api/v1/inboxes/search returns the page in full (REST results are never shortened).",
  },
  annotations: { ...mailboxRead, title: "Search inboxes" },
  rest: { method: "GET", path: "/inboxes/search" },
  example: { q: "pro" },
  handler: async (ctx, input) => {
    const rows = await listMailboxes(ctx.db, {
      actor: ctx.actor,
      q: input.q,
      limit: input.limit + 1,
      ascending: input.ascending,
      after: pageAfter(NAME, ctx.actor, input),
    });
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, inboxes: items.map(inboxView) };
  },
});
