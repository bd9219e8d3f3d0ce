import { z } from "zod";
import type { Scope } from "@/lib/keys/scopes";
import { createDraft as createDraftRow } from "@/lib/mail/drafts/create-draft";
import { viewDraft } from "@/lib/mail/drafts/draft-view";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { draftContentFields, draftOutput, messageIdRefField, sendAtField } from "@/lib/tools/mailboxes/draft-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { labelField } from "@/lib/tools/mailboxes/label-fields";
import { messageIdField } from "@/lib/tools/mailboxes/message-fields";
import { attachmentScopes, attachmentsField, checkRecipientCount } from "@/lib/tools/mailboxes/send-fields";

const input = z
  .object({
    inboxId: inboxIdField,
    to: draftContentFields.to.optional(),
    cc: draftContentFields.cc.optional(),
    bcc: draftContentFields.bcc.optional(),
    replyTo: draftContentFields.replyTo.optional(),
    references: z
      .array(messageIdRefField)
      .max(50)
      .optional()
      .describe("Message-IDs for the References header (`<id@domain>` or `id@domain`); a reply draft derives them from `inReplyTo`."),
    subject: draftContentFields.subject.optional().describe("One line; a reply draft derives `Re: …` and a forward `Fwd: …` when omitted."),
    text: draftContentFields.text.optional(),
    html: draftContentFields.html.optional(),
    attachments: attachmentsField.optional(),
    labels: z.array(labelField).max(20).optional().describe("Your own labels for the draft (and the message it becomes)."),
    inReplyTo: messageIdField
      .optional()
      .describe("Make a reply draft to this message of the inbox (`msg_…` or RFC Message-ID): subject, recipients and thread are derived. Needs message_read."),
    forwardOf: messageIdField.optional().describe("Make a forward draft of this message: quoted, with its attachments. Needs message_read."),
    replyAll: z.boolean().optional().describe("With `inReplyTo` and without to/cc/bcc: also answer the original's to and cc (not this inbox)."),
    sendAt: sendAtField.optional(),
    clientId: z.string().min(1).max(255).optional().describe("Your own id for this draft: creating again with it returns the same draft."),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.inReplyTo !== undefined && v.forwardOf !== undefined)
      ctx.addIssue({ code: "custom", path: ["forwardOf"], message: "cannot be combined with inReplyTo" });
    if (v.replyAll && v.inReplyTo === undefined) ctx.addIssue({ code: "custom", path: ["replyAll"], message: "needs inReplyTo" });
    if (v.replyAll && (v.to || v.cc || v.bcc))
      ctx.addIssue({ code: "custom", path: ["replyAll"], message: "cannot be combined with to, cc or bcc: it derives the recipients" });
    checkRecipientCount(v, ctx, { required: false });
  });

export const createDraft = defineTool({
  name: "create_draft",
  family: "mailboxes",
  scope: "draft_create",
  extraScopes: (v): Scope[] => [
    ...(v.sendAt !== undefined ? (["draft_send"] as const) : []),
    ...(v.inReplyTo !== undefined || v.forwardOf !== undefined ? (["message_read"] as const) : []),
    ...attachmentScopes(v.attachments),
  ],
  description:
    "Saves a draft in an inbox without sending it. Plain, a reply (`inReplyTo`: subject `Re: …`, recipients — Reply-To else From, `replyAll` adds the original's to and cc — and the thread are derived) or a forward (`forwardOf`: subject `Fwd: …`, the original quoted and its attachments kept; recipients may come later). `sendAt` (ISO 8601, future, at most 90 days ahead) schedules the send and adds the `scheduled` label; it needs draft_send. Replies and forwards need message_read. `clientId` makes retries safe. send_draft sends it, update_draft changes it.",
  input,
  // The answer is the draft, bodies included (256 KB each): over MCP it follows the ladder as get_draft does.
  output: budgetedOutput(draftOutput),
  mcpBudget: {
    fix: (_input, out) => `GET /api/v1/inboxes/${out.inboxId}/drafts/${out.draftId} returns the draft in full (REST results are never shortened).`,
  },
  annotations: { ...mailboxCreate, title: "Create a draft" },
  rest: { method: "POST", path: "/inboxes/{inbox_id}/drafts" },
  example: { inboxId: "{{inbox}}", to: ["{{address}}"], subject: "Draft", text: "Not sent yet." },
  handler: async (ctx, input) => {
    const { draft } = await createDraftRow(ctx.db, { actor: ctx.actor, input });
    ctx.subject = draft.id;
    return viewDraft(ctx.db, draft);
  },
});
