import { z } from "zod";
import { batchThreads as runBatch } from "@/lib/mail/batch/batch-threads";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { batchActionField, batchIdsField, batchResult, batchScopes } from "@/lib/tools/mailboxes/batch-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { addLabelsField, checkBatchLabels, removeLabelsField } from "@/lib/tools/mailboxes/label-fields";
import { threadOutput } from "@/lib/tools/mailboxes/thread-fields";

/** REST-only (mailbox spec "Not available over MCP"). */
export const batchThreads = defineTool({
  name: "batch_threads",
  family: "mailboxes",
  scope: "message_read",
  extraScopes: batchScopes,
  transports: ["rest"],
  description:
    "Gets, labels, trashes or deletes (every message, for good) up to 100 threads at once, with a result per id: an id that fails does not stop the others. `inbox_id` is optional. `label` needs message_update, `trash` and `delete` message_delete. Labels follow update_thread's rules.",
  input: z
    .object({
      inboxId: inboxIdField.optional(),
      action: batchActionField,
      ids: batchIdsField("thread ids (`thr_…`)"),
      addLabels: addLabelsField,
      removeLabels: removeLabelsField,
    })
    .strict()
    .superRefine(checkBatchLabels),
  output: z.object({ action: batchActionField, results: z.array(batchResult(threadOutput)) }),
  // Its actions (get, label, trash, delete) are each idempotent, and delete destroys: the delete preset says both.
  annotations: { ...mailboxDelete, title: "Batch threads" },
  rest: { method: "POST", path: "/threads/batch" },
  example: { inboxId: "{{inbox}}", action: "get", ids: ["{{thread}}"] },
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
