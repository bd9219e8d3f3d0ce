import { z } from "zod";
import { fieldError } from "@/lib/disk/field-error";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { checkDerivedRecipientCount } from "@/lib/mail/send/recipient-limit";
import { replyRequest } from "@/lib/mail/send/reply-request";
import { sendFromMailbox, toolCallOrigin } from "@/lib/mail/send/send-from-mailbox";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { messageIdField } from "@/lib/tools/mailboxes/message-fields";
import { attachmentScopes, checkBody, checkRecipientCount, idempotencyKeyField, sendContentFields, sendOutput } from "@/lib/tools/mailboxes/send-fields";
import { sendAnswer } from "@/lib/tools/mailboxes/send-answer";

export const replyToMessage = defineTool({
  name: "reply_to_message",
  family: "mailboxes",
  scope: ["message_reply", "message_read"],
  extraScopes: (v) => attachmentScopes(v.attachments),
  description:
    "Replies to a message of an inbox, in the same thread: subject `Re: …`, In-Reply-To and References from the original. It goes to the original's Reply-To, else its sender (your own sent message: its recipients); `replyAll: true` also copies the original's to and cc, never this inbox itself. Give `to`, `cc` or `bcc` to choose the recipients yourself (not together with `replyAll`). `messageId` is `msg_…` or the RFC Message-ID; a message this inbox does not hold is NOT_FOUND, never a new thread. Bodies, attachments and headers as in send_message. Returns `{message_id, thread_id, send_status}`. If the inbox needs the owner's approval, the answer is the error `approval_required` naming the draft that waits: tell the human and stop. Pass `idempotencyKey` to make retries safe.",
  input: z
    .object({
      inboxId: inboxIdField,
      messageId: messageIdField,
      replyAll: z.boolean().optional().describe("Also copy the original's to and cc recipients, minus this inbox. Not with to, cc or bcc."),
      ...sendContentFields,
      idempotencyKey: idempotencyKeyField,
    })
    .strict()
    .superRefine((v, ctx) => {
      if (v.replyAll && (v.to || v.cc || v.bcc)) {
        ctx.addIssue({
          code: "custom",
          path: ["replyAll"],
          message: "cannot be combined with to, cc or bcc: choose the recipients or let replyAll derive them",
        });
      }
      checkRecipientCount(v, ctx, { required: false });
      checkBody(v, ctx);
    }),
  output: sendOutput,
  annotations: { ...mailboxCreate, title: "Reply to a message" },
  rest: { method: "POST", path: "/inboxes/{inbox_id}/messages/{message_id}/reply" },
  idempotencyKey: true,
  example: { inboxId: "{{inbox}}", messageId: "{{message}}", to: ["{{address}}"], text: "Thanks, received." },
  handler: async (ctx, input) => {
    const mailbox = await findMailbox(ctx.db, ctx.actor, input.inboxId);
    const original = await findMessage(ctx.db, ctx.actor, mailbox.id, input.messageId);
    const request = await replyRequest(ctx.db, { actor: ctx.actor, mailbox, original, input });
    // Derived recipients are checked here: the schema saw only the caller's.
    const n = request.to.length + request.cc.length + request.bcc.length;
    if (n === 0) throw fieldError("to", "the original names nobody to reply to (no From or Reply-To)", "Give the recipients in to.");
    checkDerivedRecipientCount(request, input.replyAll);
    const outcome = await sendFromMailbox(ctx.db, { actor: ctx.actor, mailbox, origin: toolCallOrigin(ctx.actor), tool: "reply_to_message", request });
    return sendAnswer(ctx, outcome);
  },
});
