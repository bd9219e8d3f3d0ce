"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { scriptedVerdictInput } from "@/lib/approvals/person-verdict";

/**
 * The owner's decision through the owner channel: each outcome takes only its own fields, as over owner REST (the
 * screen sends no others), so a condition typed into the wrong field is refused, not approved without it.
 */
export const decideAction = ownerAction(
  z.object({ requestId: z.string().regex(/^req_[A-Za-z0-9]{1,40}$/), verdict: scriptedVerdictInput }),
  async (ctx, input) => {
    ctx.subject = input.requestId;
    const row = await decideAsOwner(ctx.db, { actor: ctx.actor, requestId: input.requestId, verdict: input.verdict });
    return { status: row.status };
  },
  { op: DECIDE_OP },
);
