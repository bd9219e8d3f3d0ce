"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { personVerdictInput } from "@/lib/approvals/person-verdict";

/** The owner's decision through the owner channel. */
export const decideAction = ownerAction(
  z.object({ requestId: z.string().regex(/^req_[A-Za-z0-9]{1,40}$/), verdict: personVerdictInput }),
  async (ctx, input) => {
    ctx.subject = input.requestId;
    const row = await decideAsOwner(ctx.db, { actor: ctx.actor, requestId: input.requestId, verdict: input.verdict });
    return { status: row.status };
  },
  { op: DECIDE_OP },
);
