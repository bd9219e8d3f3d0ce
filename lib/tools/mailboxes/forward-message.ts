import { z } from "zod";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { forwardRequest } from "@/lib/mail/send/forward-request";
import { sendFromMailbox, toolCallOrigin } from "@/lib/mail/send/send-from-mailbox";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { messageIdField } from "@/lib/tools/mailboxes/message-fields";
import { attachmentScopes, checkRecipientCount, idempotencyKeyField, sendContentFields, sendOutput, subjectField } from "@/lib/tools/mailboxes/send-fields";
import { sendAnswer } from "@/lib/tools/mailboxes/send-answer";

export const forwardMessage = defineTool({
  name: "forward_message",
  family: "mailboxes",
  scope: ["message_send", "message_read"],
  extraScopes: (v) => attachmentScopes(v.attachments),
  description:
    "Forwards a message of an inbox in a new thread: subject `Fwd: …` unless you give one, your `text`/`html` above the quoted original, and the original's attachments attached again (plus any you add; at most 10 files, 10 MB in total). `to` is required; `cc` and `bcc` as in send_message. `messageId` is `msg_…` or the RFC Message-ID; a message this inbox does not hold is NOT_FOUND. Returns `{message_id, thread_id, send_status}`. If the inbox needs the owner's approval, the answer is the error `approval_required` naming the draft that waits: tell the human and stop. Pass `idempotencyKey` to make retries safe.",
  input: z
    .object({
      inboxId: inboxIdField,
      messageId: messageIdField,
      ...sendContentFields,
      subject: subjectField.optional(),
      idempotencyKey: idempotencyKeyField,
    })
    .strict()
    .superRefine((v, ctx) => {
      if (!v.to || v.to.length === 0) ctx.addIssue({ code: "custom", path: ["to"], message: "give at least one recipient to forward to" });
      checkRecipientCount(v, ctx, { required: false });
    }),
  output: sendOutput,
  annotations: { ...mailboxCreate, title: "Forward a message" },
  rest: { method: "POST", path: "/inboxes/{inbox_id}/messages/{message_id}/forward" },
  idempotencyKey: true,
  example: { inboxId: "{{inbox}}", messageId: "{{message}}", to: ["{{address}}"], text: "FYI, see below." },
  handler: async (ctx, input) => {
    const mailbox = await findMailbox(ctx.db, ctx.actor, input.inboxId);
    const original = await findMessage(ctx.db, ctx.actor, mailbox.id, input.messageId);
    const request = await forwardRequest(ctx.db, { actor: ctx.actor, mailbox, original, input });
    const outcome = await sendFromMailbox(ctx.db, { actor: ctx.actor, mailbox, origin: toolCallOrigin(ctx.actor), tool: "forward_message", request });
    return sendAnswer(ctx, outcome);
  },
});
