import { z } from "zod";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { ownerDecideDraft } from "@/lib/mail/drafts/owner-draft-changes";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

const draftId = z.string().regex(/^drf_[A-Za-z0-9]{1,40}$/, "must be a draft id, `drf_…`");
const output = z.object({
  draft_id: z.string(),
  request_id: z.string().describe("The draft's approval request, now decided."),
  message_id: z.string().nullable().describe("The message the approval sent; null after a rejection, or when the send was refused."),
  send_status: z.string().nullable().describe("The sent message's, or the draft's after a rejection (`rejected`) or a refused send (`failed`)."),
  send_reason: z.string().nullable(),
});

/** One route per outcome (design Appendix B), both deciding the draft's approval request as the Approvals screen does. */
function decideDraftRoute(approve: boolean) {
  const verb = approve ? "approve" : "reject";
  return defineOwnerRoute({
    name: `owner_${verb}_draft`,
    description: approve
      ? "Approves a draft awaiting the owner (send_status `pending_approval`): exactly the held content is sent. A draft changed since it was held is rejected instead."
      : "Rejects a draft awaiting the owner (send_status `pending_approval`): nothing is sent, the draft stays with send_status `rejected` and the comment as its send_reason, and the agent gets `draft.rejected`.",
    input: z.object({ draft_id: draftId, comment: z.string().max(2000).optional().describe("Shown to the agent as the reason.") }).strict(),
    output,
    rest: { method: "POST", path: `/owner/drafts/{draft_id}/${verb}` },
    op: DECIDE_OP,
    handler: async (ctx, input) => {
      const r = await ownerDecideDraft(ctx.db, { actor: ctx.actor, draftId: input.draft_id, approve, comment: input.comment });
      // The entry names the request decided, as the Approvals screen's does: a ledger search by request finds both.
      ctx.subject = r.requestId;
      return { draft_id: input.draft_id, request_id: r.requestId, message_id: r.messageId, send_status: r.sendStatus, send_reason: r.sendReason };
    },
  });
}

export const approveDraftRoute = decideDraftRoute(true);
export const rejectDraftRoute = decideDraftRoute(false);
