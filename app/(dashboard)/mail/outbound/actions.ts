"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { resolveActions, resolveUnknown } from "@/lib/mail/outbound/resolve-unknown";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { resolveUnknownRoute } from "@/lib/owner-api/resolve-unknown";

/** The Outbound tab's Mark sent / Resend / Mark failed: the owner route's op, so both ways read alike in the ledger. */
export const resolveUnknownAction = ownerAction(
  z.object({ messageId: z.string().regex(/^msg_[A-Za-z0-9]{1,40}$/), action: z.enum(resolveActions) }),
  async (ctx, input) => {
    ctx.subject = input.messageId;
    const r = await resolveUnknown(ctx.db, { actor: ctx.actor, messageId: input.messageId, action: input.action });
    return { status: r.status };
  },
  { op: routeOp(resolveUnknownRoute) },
);
