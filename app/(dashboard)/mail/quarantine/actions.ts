"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { deleteQuarantined } from "@/lib/mail/quarantine/delete-quarantined";
import { releaseMessage } from "@/lib/mail/quarantine/release-message";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { deleteQuarantinedRoute, releaseQuarantinedRoute } from "@/lib/owner-api/quarantine";

const messageId = z.object({ messageId: z.string().regex(/^msg_[A-Za-z0-9]{1,40}$/) });

/** The owner route's own op, so the ledger reads the same whichever way the owner released it. */
export const releaseMessageAction = ownerAction(
  messageId,
  async (ctx, input) => {
    ctx.subject = input.messageId;
    const r = await releaseMessage(ctx.db, { actor: ctx.actor, messageId: input.messageId });
    return { id: r.id, releasedFrom: r.releasedFrom };
  },
  { op: routeOp(releaseQuarantinedRoute) },
);

export const deleteQuarantinedAction = ownerAction(
  messageId,
  async (ctx, input) => {
    ctx.subject = input.messageId;
    const r = await deleteQuarantined(ctx.db, { actor: ctx.actor, messageId: input.messageId });
    return { id: r.id };
  },
  { op: routeOp(deleteQuarantinedRoute) },
);
