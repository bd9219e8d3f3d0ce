import { z } from "zod";
import { batchMessages as runBatch } from "@/lib/mail/batch/batch-messages";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { batchActionField, batchIdsField, batchResult, batchScopes } from "@/lib/tools/mailboxes/batch-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { addLabelsField, checkBatchLabels, removeLabelsField } from "@/lib/tools/mailboxes/label-fields";
import { messageOutput } from "@/lib/tools/mailboxes/message-fields";

/** REST-only (mailbox spec "Not available over MCP"). */
export const batchMessages = defineTool({
  name: "batch_messages",
  family: "mailboxes",
  scope: "message_read",
  extraScopes: batchScopes,
  transports: ["rest"],
  description:
    "Gets, labels, trashes or deletes (for good) up to 100 messages of one inbox at once, with a result per id: an id that fails (not found, still being sent) does not stop the others. `label` needs message_update, `trash` and `delete` message_delete. Labels follow update_message's rules.",
  input: z
    .object({
      inboxId: inboxIdField,
      action: batchActionField,
      ids: batchIdsField("message ids (`msg_…` or RFC Message-IDs)"),
      addLabels: addLabelsField,
      removeLabels: removeLabelsField,
    })
    .strict()
    .superRefine(checkBatchLabels),
  output: z.object({ action: batchActionField, results: z.array(batchResult(messageOutput)) }),
  // Its actions (get, label, trash, delete) are each idempotent, and delete destroys: the delete preset says both.
  annotations: { ...mailboxDelete, title: "Batch messages" },
  rest: { method: "POST", path: "/inboxes/{inbox_id}/messages/batch" },
  example: { inboxId: "{{inbox}}", action: "get", ids: ["{{message}}"] },
  handler: async (ctx, input) => {
    const results = await runBatch(ctx.db, {
      actor: ctx.actor,
      inboxId: input.inboxId,
      action: input.action,
      ids: input.ids,
      add: input.addLabels,
      remove: input.removeLabels,
    });
    return { action: input.action, results };
  },
});
