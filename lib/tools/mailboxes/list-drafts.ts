import { listDrafts as listDraftRows } from "@/lib/mail/drafts/list-drafts";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { toDate } from "@/lib/tools/fields";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { draftPage } from "@/lib/tools/mailboxes/draft-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { labelsFilterField } from "@/lib/tools/mailboxes/label-filter";
import { afterField, ascendingField, beforeField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";

const NAME = "list_drafts";

export const listDrafts = defineTool({
  name: NAME,
  family: "mailboxes",
  scope: "draft_read",
  description:
    'Lists drafts with their content, most recently changed first unless `ascending`. Without `inboxId`: the drafts of every inbox your key may use. `labels` must all match: `["scheduled"]` finds drafts waiting for their `send_at`. Each draft shows `send_status` (`scheduled`, `failed`, `pending_approval`, `rejected`, or null) and `send_reason`. 10 a page by default, `limit` up to 100; pass `next_page_token` back as `pageToken`.',
  input: listInput({
    inboxId: inboxIdField.optional(),
    ascending: ascendingField,
    before: beforeField,
    after: afterField,
    labels: labelsFilterField,
  }),
  output: budgetedOutput(draftPage),
  mcpBudget: {
    fix: (input) =>
      `A smaller limit fits more of each draft; GET /api/v1/${input.inboxId ? `inboxes/${input.inboxId}/drafts` : "drafts"} returns the page in full (REST results are never shortened).`,
  },
  annotations: { ...mailboxRead, title: "List drafts" },
  rest: { method: "GET", path: "/inboxes/{inbox_id}/drafts" },
  example: { inboxId: "{{inbox}}" },
  handler: async (ctx, input) => {
    const rows = await listDraftRows(ctx.db, {
      actor: ctx.actor,
      filter: { inboxId: input.inboxId, labels: input.labels, before: toDate(input.before), after: toDate(input.after) },
      limit: input.limit + 1,
      ascending: input.ascending,
      page: pageAfter(NAME, ctx.actor, input),
    });
    const { items, head } = pageOfRows(NAME, ctx.actor, input, rows);
    return { ...head, drafts: items.map((r) => r.view) };
  },
});
