import { z } from "zod";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { sendFromMailbox, toolCallOrigin } from "@/lib/mail/send/send-from-mailbox";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import {
  attachmentScopes,
  checkBody,
  checkRecipientCount,
  idempotencyKeyField,
  sendContentFields,
  sendOutput,
  subjectField,
} from "@/lib/tools/mailboxes/send-fields";
import { sendAnswer } from "@/lib/tools/mailboxes/send-answer";

export const sendMessage = defineTool({
  name: "send_message",
  family: "mailboxes",
  scope: "message_send",
  extraScopes: (v) => attachmentScopes(v.attachments),
  description:
    "Sends one new message from an inbox, in a new thread. `to`, `cc` and `bcc` take plain addresses (`local@domain`), at most 50 together; bcc recipients get the mail but appear in no header. `subject` is one line; `text` and/or `html` up to 256 KB each; `attachments` up to 10 files, 10 MB in total, inline base64 or by disk path; `headers` only X-… and List-Unsubscribe-style extras. Returns `{message_id, thread_id, send_status}`; delivery continues in the background (get_message shows the outcome). Recipients on a send block list are POLICY_DENIED and nothing is sent. If the inbox needs the owner's approval, the answer is the error `approval_required` naming the draft that waits: tell the human and stop. Pass `idempotencyKey` to make retries safe.",
  input: z
    .object({ inboxId: inboxIdField, ...sendContentFields, subject: subjectField, idempotencyKey: idempotencyKeyField })
    .strict()
    .superRefine((v, ctx) => {
      checkRecipientCount(v, ctx, { required: true });
      checkBody(v, ctx);
    }),
  output: sendOutput,
  annotations: { ...mailboxCreate, title: "Send a message" },
  rest: { method: "POST", path: "/inboxes/{inbox_id}/messages/send" },
  idempotencyKey: true,
  example: { inboxId: "{{inbox}}", to: ["{{address}}"], subject: "Hello", text: "Hi there." },
  handler: async (ctx, input) => {
    const mailbox = await findMailbox(ctx.db, ctx.actor, input.inboxId);
    const outcome = await sendFromMailbox(ctx.db, {
      actor: ctx.actor,
      mailbox,
      origin: toolCallOrigin(ctx.actor),
      tool: "send_message",
      request: {
        kind: "new",
        to: input.to ?? [],
        cc: input.cc ?? [],
        bcc: input.bcc ?? [],
        replyTo: input.replyTo ?? [],
        subject: input.subject,
        text: input.text ?? null,
        html: input.html ?? null,
        labels: input.labels ?? [],
        headers: input.headers ?? {},
        attachments: input.attachments ?? [],
        kept: [],
        thread: null,
        inReplyToMessageId: null,
        forwardOfMessageId: null,
        replyAll: false,
      },
    });
    return sendAnswer(ctx, outcome);
  },
});
