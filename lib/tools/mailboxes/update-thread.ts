import { z } from "zod";
import { labelThread } from "@/lib/mail/labels/label-thread";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxUpdate } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { addLabelsField, checkLabelCount, labelsOutput, removeLabelsField } from "@/lib/tools/mailboxes/label-fields";
import { threadIdField } from "@/lib/tools/mailboxes/thread-fields";

export const updateThread = defineTool({
  name: "update_thread",
  family: "mailboxes",
  scope: "message_update",
  description:
    "Adds and removes labels on every message of a thread and returns the thread's labels (the union of its messages'). Your own labels are lower case (`follow-up`, `billing/q3`); of the system labels only `unread` may be added or removed, the others are refused. A label both added and removed is removed. `inboxId` is optional.",
  input: z
    .object({ threadId: threadIdField, inboxId: inboxIdField.optional(), addLabels: addLabelsField, removeLabels: removeLabelsField })
    .strict()
    .superRefine(checkLabelCount),
  output: budgetedOutput(z.object({ threadId: z.string(), labels: labelsOutput })),
  // A thread's labels have no cap (20 a call, any number of calls): over MCP the answer may come down to its id.
  mcpBudget: { fix: (_input, out) => `GET /api/v1/threads/${out.threadId} returns the thread's labels in full (REST results are never shortened).` },
  annotations: { ...mailboxUpdate, title: "Label a thread" },
  rest: { method: "PATCH", path: "/threads/{thread_id}" },
  example: { threadId: "{{thread}}", addLabels: ["follow-up"], removeLabels: ["unread"] },
  handler: async (ctx, input) => {
    ctx.subject = input.threadId;
    return labelThread(ctx.db, { actor: ctx.actor, threadId: input.threadId, inboxId: input.inboxId, add: input.addLabels, remove: input.removeLabels });
  },
});
