import type { Scope } from "@/lib/keys/scopes";
import { z } from "zod";
import { viewDraft } from "@/lib/mail/drafts/draft-view";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { updateDraft as updateDraftRow } from "@/lib/mail/drafts/update-draft";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxUpdate } from "@/lib/tools/mailboxes/annotations";
import { draftContentFields, draftIdField, draftOutput, sendAtField } from "@/lib/tools/mailboxes/draft-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { addLabelsField, attachmentIdField, removeLabelsField } from "@/lib/tools/mailboxes/label-fields";
import { attachmentScopes, attachmentsField, checkRecipientCount } from "@/lib/tools/mailboxes/send-fields";

const clearable = <T extends z.ZodType>(field: T) => field.nullable().optional();

export const updateDraft = defineTool({
  name: "update_draft",
  family: "mailboxes",
  scope: "draft_update",
  extraScopes: (v): Scope[] => [...(v.sendAt ? (["draft_send"] as const) : []), ...attachmentScopes(v.addAttachments)],
  description:
    "Changes a draft. An omitted field stays as it is; null (or [] for a list) clears it. The kind (plain, reply, forward) and thread never change. `sendAt` schedules or reschedules the send (needs draft_send), and so does any change to a draft that stays scheduled; `sendAt: null` unschedules it. `addAttachments` takes the same files as send_message; `removeAttachments` takes attachment ids from get_draft. A draft being sent or waiting for the owner's approval cannot change (CONFLICT).",
  input: z
    .object({
      inboxId: inboxIdField,
      draftId: draftIdField,
      to: clearable(draftContentFields.to),
      cc: clearable(draftContentFields.cc),
      bcc: clearable(draftContentFields.bcc),
      replyTo: clearable(draftContentFields.replyTo),
      subject: clearable(draftContentFields.subject),
      text: clearable(draftContentFields.text),
      html: clearable(draftContentFields.html),
      sendAt: clearable(sendAtField),
      addAttachments: attachmentsField.optional(),
      removeAttachments: z.array(attachmentIdField).max(10).optional().describe("Attachment ids (`att_…`) from get_draft to take off."),
      addLabels: addLabelsField,
      removeLabels: removeLabelsField,
    })
    .strict()
    .superRefine((v, ctx) => checkRecipientCount({ to: v.to ?? [], cc: v.cc ?? [], bcc: v.bcc ?? [] }, ctx, { required: false })),
  // The answer is the draft, bodies included (256 KB each): over MCP it follows the ladder as get_draft does.
  output: budgetedOutput(draftOutput),
  mcpBudget: {
    fix: (_input, out) => `GET /api/v1/inboxes/${out.inboxId}/drafts/${out.draftId} returns the draft in full (REST results are never shortened).`,
  },
  annotations: { ...mailboxUpdate, title: "Change a draft" },
  rest: { method: "PATCH", path: "/inboxes/{inbox_id}/drafts/{draft_id}" },
  example: { inboxId: "{{inbox}}", draftId: "{{draft}}", subject: "Changed subject" },
  handler: async (ctx, input) => {
    const draft = await updateDraftRow(ctx.db, { actor: ctx.actor, input });
    ctx.subject = draft.id;
    return viewDraft(ctx.db, draft);
  },
});
