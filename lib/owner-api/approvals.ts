import { z } from "zod";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { scriptedVerdictInput } from "@/lib/approvals/person-verdict";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { parseOrThrow } from "@/lib/validation";

/** The owner's decision from a script or a test: the same as the Approvals screen's buttons. */
export const decideRequestRoute = defineOwnerRoute({
  name: "decide_request",
  description:
    "Decides a pending request as the owner: `outcome` approve, deny, option (with `option`), answer (with `text`, for questions) or needs_context (with `comment`).",
  input: z
    .object({
      request_id: z.string().regex(/^req_[A-Za-z0-9]{1,40}$/, "must be a request id, `req_…`"),
      outcome: z.enum(["approve", "deny", "option", "answer", "needs_context"]),
      option: z.string().optional(),
      text: z.string().optional(),
      comment: z.string().optional(),
    })
    .strict(),
  output: z.object({ request_id: z.string(), status: z.string(), decided_by: z.string().nullable(), decided_at: z.string().nullable() }),
  rest: { method: "POST", path: "/requests/{request_id}/decision" },
  op: DECIDE_OP,
  handler: async (ctx, { request_id, ...rest }) => {
    ctx.subject = request_id;
    const verdict = parseOrThrow(scriptedVerdictInput, rest);
    const row = await decideAsOwner(ctx.db, { actor: ctx.actor, requestId: request_id, verdict });
    return { request_id: row.id, status: row.status, decided_by: row.decidedBy, decided_at: row.decidedAt?.toISOString() ?? null };
  },
});
