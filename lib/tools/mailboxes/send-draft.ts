import { z } from "zod";
import { sendDraftNow } from "@/lib/mail/drafts/send-draft-now";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { draftIdField } from "@/lib/tools/mailboxes/draft-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { addLabelsField, removeLabelsField } from "@/lib/tools/mailboxes/label-fields";
import { idempotencyKeyField, sendOutput } from "@/lib/tools/mailboxes/send-fields";
import { sendAnswer } from "@/lib/tools/mailboxes/send-answer";

export const sendDraft = defineTool({
  name: "send_draft",
  family: "mailboxes",
  scope: "draft_send",
  description:
    "Sends a draft now: it becomes a message (a reply stays in its thread) and the draft is deleted. `addLabels`/`removeLabels` apply to the sent message. A scheduled draft goes now instead of at `send_at`. Returns `{message_id, thread_id, send_status}`. The send lists and the inbox's send policy apply as for send_message: if the owner must approve, the answer is the error `approval_required` naming the draft, which then waits (send_status `pending_approval`): tell the human and stop. A draft already sent is NOT_FOUND; one being sent or awaiting approval is CONFLICT. Pass `idempotencyKey` to make retries safe.",
  input: z
    .object({ inboxId: inboxIdField, draftId: draftIdField, addLabels: addLabelsField, removeLabels: removeLabelsField, idempotencyKey: idempotencyKeyField })
    .strict(),
  output: sendOutput,
  annotations: { ...mailboxCreate, title: "Send a draft" },
  rest: { method: "POST", path: "/inboxes/{inbox_id}/drafts/{draft_id}/send" },
  idempotencyKey: true,
  // The contract test runs the example twice (MCP, then REST): a draft sends once, and the key replays the first.
  example: { inboxId: "{{inbox}}", draftId: "{{draft}}", idempotencyKey: "contract-send-draft" },
  handler: async (ctx, input) => {
    const outcome = await sendDraftNow(ctx.db, {
      actor: ctx.actor,
      inboxId: input.inboxId,
      draftId: input.draftId,
      addLabels: input.addLabels,
      removeLabels: input.removeLabels,
    });
    return sendAnswer(ctx, outcome);
  },
});
