import { attachmentsOf } from "@/lib/mail/messages/attachments-of";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { messageView } from "@/lib/mail/messages/message-view";
import { z } from "zod";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { messageIdField, messageOutput } from "@/lib/tools/mailboxes/message-fields";

export const getMessage = defineTool({
  name: "get_message",
  family: "mailboxes",
  untrusted: true,
  scope: "message_read",
  description:
    "Reads one message in full: text, html, extracted_text/extracted_html (the reply without quoted history), attachment metadata, SPF/DKIM/DMARC verdicts, labels, and send_status/send_reason for outbound mail. `messageId` is the `msg_…` id or the RFC Message-ID. Over MCP a result above about 19,000 bytes is shortened (`truncated: true`; the `fix` names the REST path that returns everything). A message outside the key's inboxes is NOT_FOUND.",
  input: z.object({ inboxId: inboxIdField, messageId: messageIdField }).strict(),
  output: budgetedOutput(messageOutput),
  annotations: { ...mailboxRead, title: "Get a message" },
  rest: { method: "GET", path: "/inboxes/{inbox_id}/messages/{message_id}" },
  mcpBudget: {
    fix: (_input, out) => `GET /api/v1/inboxes/${out.inboxId}/messages/${out.messageId} returns the message in full (REST results are never shortened).`,
  },
  example: { inboxId: "{{inbox}}", messageId: "{{message}}" },
  handler: async (ctx, input) => {
    const row = await findMessage(ctx.db, ctx.actor, input.inboxId, input.messageId);
    ctx.subject = row.id;
    const files = await attachmentsOf(ctx.db, ctx.actor.projectId, [row.id]);
    return messageView(row, files.get(row.id) ?? []);
  },
});
