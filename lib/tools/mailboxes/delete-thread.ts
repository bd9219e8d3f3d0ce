import { z } from "zod";
import { trashThread } from "@/lib/mail/labels/trash-thread";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { labelsOutput } from "@/lib/tools/mailboxes/label-fields";
import { threadIdField } from "@/lib/tools/mailboxes/thread-fields";

export const deleteThread = defineTool({
  name: "delete_thread",
  family: "mailboxes",
  scope: "message_delete",
  description:
    "Moves a thread to the trash: every message gets the `trash` label and the thread leaves default lists (list_threads shows it with `includeTrash`). Calling it again on a trashed thread succeeds and changes nothing. Nothing is erased; permanent deletion is available over REST only.",
  input: z.object({ threadId: threadIdField, inboxId: inboxIdField.optional() }).strict(),
  output: budgetedOutput(z.object({ threadId: z.string(), labels: labelsOutput })),
  // A thread's labels have no cap (20 a call, any number of calls): over MCP the answer may come down to its id.
  mcpBudget: { fix: (_input, out) => `GET /api/v1/threads/${out.threadId} returns the thread's labels in full (REST results are never shortened).` },
  annotations: { ...mailboxDelete, title: "Trash a thread" },
  rest: { method: "DELETE", path: "/threads/{thread_id}" },
  example: { threadId: "{{thread}}" },
  handler: async (ctx, input) => {
    ctx.subject = input.threadId;
    return trashThread(ctx.db, { actor: ctx.actor, threadId: input.threadId, inboxId: input.inboxId });
  },
});
