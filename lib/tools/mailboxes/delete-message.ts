import { z } from "zod";
import { deleteMessage as eraseOne } from "@/lib/mail/deletion/delete-message";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { messageIdField } from "@/lib/tools/mailboxes/message-fields";

/** REST-only (mailbox spec "Not available over MCP"): permanent deletion is never offered to a model. */
export const deleteMessage = defineTool({
  name: "delete_message",
  family: "mailboxes",
  scope: "message_delete",
  transports: ["rest"],
  description:
    "Deletes one message for good: the message, its attachments and stored bytes (kept while another message or event still uses them). The thread's summary is recomputed and a thread left empty is removed. Deleting a message that is already gone succeeds with `deleted: false`. Outbound mail still being sent or awaiting approval → CONFLICT.",
  input: z.object({ inboxId: inboxIdField, messageId: messageIdField }).strict(),
  output: z.object({
    messageId: z.string(),
    threadId: z.string().nullable(),
    deleted: z.boolean().describe("False when the message was already gone."),
    threadDeleted: z.boolean().describe("The thread had no other message and was removed too."),
  }),
  annotations: { ...mailboxDelete, title: "Delete a message" },
  rest: { method: "DELETE", path: "/inboxes/{inbox_id}/messages/{message_id}" },
  example: { inboxId: "{{inbox}}", messageId: "{{message}}" },
  handler: async (ctx, input) => {
    const out = await eraseOne(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = out.messageId;
    return out;
  },
});
