import { approvalRequired } from "@/lib/mail/drafts/hold-for-approval";
import type { SendOutcome } from "@/lib/mail/send/send-from-mailbox";
import type { ToolContext } from "@/lib/tools/define-tool";
import { toolError } from "@/lib/tools/tool-error";

/**
 * What the four send tools answer: the queued message, or — held for the owner's approval — `approval_required`
 * naming the draft, as an error that commits (the draft and its request stay). The ledger subject is whichever exists.
 */
export function sendAnswer(ctx: ToolContext, outcome: SendOutcome) {
  if ("held" in outcome) {
    ctx.subject = outcome.held.draftId;
    return toolError(approvalRequired(outcome.held.draftId));
  }
  ctx.subject = outcome.sent.messageId;
  return outcome.sent;
}
