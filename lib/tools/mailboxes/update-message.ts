import { z } from "zod";
import { labelMessage } from "@/lib/mail/labels/label-message";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxUpdate } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { addLabelsField, checkLabelCount, labelsOutput, removeLabelsField } from "@/lib/tools/mailboxes/label-fields";
import { messageIdField } from "@/lib/tools/mailboxes/message-fields";

export const updateMessage = defineTool({
  name: "update_message",
  family: "mailboxes",
  scope: "message_update",
  description:
    "Adds and removes labels on one message and returns its labels; the thread's labels follow. Your own labels are lower case (`follow-up`); of the system labels only `unread` may be added or removed, the others are refused. A label both added and removed is removed.",
  input: z
    .object({ inboxId: inboxIdField, messageId: messageIdField, addLabels: addLabelsField, removeLabels: removeLabelsField })
    .strict()
    .superRefine(checkLabelCount),
  output: budgetedOutput(z.object({ messageId: z.string(), threadId: z.string(), labels: labelsOutput })),
  // A message's labels have no cap (20 a call, any number of calls): over MCP the answer may come down to its ids.
  mcpBudget: {
    fix: (input, out) =>
      `GET /api/v1/inboxes/${input.inboxId}/messages/${out.messageId} returns the message's labels in full (REST results are never shortened).`,
  },
  annotations: { ...mailboxUpdate, title: "Label a message" },
  rest: { method: "PATCH", path: "/inboxes/{inbox_id}/messages/{message_id}" },
  example: { inboxId: "{{inbox}}", messageId: "{{message}}", removeLabels: ["unread"] },
  handler: async (ctx, input) => {
    const out = await labelMessage(ctx.db, {
      actor: ctx.actor,
      inboxId: input.inboxId,
      messageId: input.messageId,
      add: input.addLabels,
      remove: input.removeLabels,
    });
    ctx.subject = out.messageId;
    return out;
  },
});
