import { listDrafts as listDraftRows } from "@/lib/mail/drafts/list-drafts";
import { defineTool } from "@/lib/tools/define-tool";
import { toDate } from "@/lib/tools/fields";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { draftPage } from "@/lib/tools/mailboxes/draft-fields";
import { labelsFilterField } from "@/lib/tools/mailboxes/label-filter";
import { afterField, ascendingField, beforeField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";

const NAME = "list_all_drafts";
/**
 * Its pages are list_drafts' without `inboxId` (the same question; REST routes list_drafts by inbox), so a
 * next_page_token from either answers on the other, as the fix of a shortened list_drafts page promises.
 */
const PAGES = "list_drafts";

/** REST-only (spec "Not available over MCP": instance-wide draft reads): every inbox's drafts with their bodies, never shortened. */
export const listAllDrafts = defineTool({
  name: NAME,
  family: "mailboxes",
  scope: "draft_read",
  transports: ["rest"],
  description:
    "Lists the drafts of every inbox your key may use, with their full content, most recently changed first unless `ascending`; `labels` must all match (`scheduled`). 10 a page by default, `limit` up to 100; pass `next_page_token` back as `page_token`.",
  input: listInput({ ascending: ascendingField, before: beforeField, after: afterField, labels: labelsFilterField }),
  output: draftPage,
  annotations: { ...mailboxRead, title: "List all drafts" },
  rest: { method: "GET", path: "/drafts" },
  example: {},
  handler: async (ctx, input) => {
    const rows = await listDraftRows(ctx.db, {
      actor: ctx.actor,
      filter: { labels: input.labels, before: toDate(input.before), after: toDate(input.after) },
      limit: input.limit + 1,
      ascending: input.ascending,
      page: pageAfter(PAGES, ctx.actor, input),
    });
    const { items, head } = pageOfRows(PAGES, ctx.actor, input, rows);
    return { ...head, drafts: items.map((r) => r.view) };
  },
});
