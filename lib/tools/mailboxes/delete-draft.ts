import { z } from "zod";
import { deleteDraft as deleteDraftRow } from "@/lib/mail/drafts/delete-draft";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { draftIdField } from "@/lib/tools/mailboxes/draft-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";

export const deleteDraft = defineTool({
  name: "delete_draft",
  family: "mailboxes",
  scope: "draft_delete",
  description:
    "Deletes a draft: its schedule is cancelled and a pending approval request is withdrawn (the owner sees it closed). Deleting a draft that is already gone succeeds with `deleted: false`.",
  input: z.object({ inboxId: inboxIdField, draftId: draftIdField }).strict(),
  output: z.object({ draftId: z.string(), deleted: z.boolean().describe("False when the draft was already gone.") }),
  annotations: { ...mailboxDelete, title: "Delete a draft" },
  rest: { method: "DELETE", path: "/inboxes/{inbox_id}/drafts/{draft_id}" },
  example: { inboxId: "{{inbox}}", draftId: "{{draft}}" },
  handler: async (ctx, input) => {
    const out = await deleteDraftRow(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = out.draftId;
    return out;
  },
});
