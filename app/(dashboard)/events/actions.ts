"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { requeueEvents } from "@/lib/events/requeue-events";
import { typeFilter } from "@/lib/events/type-filter";

const REQUEUE_OP = "event.requeue";

/** Only dead and failed events move; others in the list are left alone. */
export const requeueEventsAction = ownerAction(
  z.object({ eventIds: z.array(z.string().min(1).max(100)).min(1).max(500) }),
  async (ctx, input) => {
    const { requeued } = await requeueEvents(ctx.db, { actor: ctx.actor, eventIds: input.eventIds });
    ctx.subject = requeued.length === 1 ? requeued[0] : null;
    return { requeued: requeued.length };
  },
  { op: REQUEUE_OP },
);

/** One batch of "requeue all matching": the browser repeats it until nothing is left, showing progress. */
export const requeueMatchingAction = ownerAction(
  z.object({
    status: z.enum(["dead", "failed"]),
    source: z.string().min(1).max(64).optional(),
    type: typeFilter.optional(),
    hideBookkeeping: z.boolean().optional(),
  }),
  async (ctx, input) => ({ requeued: (await requeueEvents(ctx.db, { actor: ctx.actor, filter: input })).requeued.length }),
  { op: REQUEUE_OP },
);
