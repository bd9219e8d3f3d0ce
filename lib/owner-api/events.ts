import { z } from "zod";
import { requeueEvents } from "@/lib/events/requeue-events";
import { typeFilter } from "@/lib/events/type-filter";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** The Events screen's "requeue" over owner REST: the same domain function and op as app/(dashboard)/events/actions.ts. */
export const requeueEventsRoute = defineOwnerRoute({
  name: "owner_events_requeue",
  description:
    "Puts `dead` and `failed` events back to `pending` with fresh attempts: the listed `event_ids`, or the next 500 matching `status` (and optionally `source`, `type`, `hide_bookkeeping`). Other events are left alone; repeat a filtered call until `requeued` is 0.",
  input: z
    .object({
      event_ids: z.array(z.string().min(1).max(100)).min(1).max(500).optional(),
      status: z.enum(["dead", "failed"]).optional(),
      source: z.string().min(1).max(64).optional(),
      type: typeFilter.optional(),
      hide_bookkeeping: z
        .boolean()
        .optional()
        .describe("Leave out Brynth's own `request.resolved` events, as the Events screen does unless asked to show them."),
    })
    .strict()
    .superRefine((v, ctx) => {
      if (!v.event_ids && !v.status) ctx.addIssue({ code: "custom", path: ["event_ids"], message: "give event_ids, or a status to requeue by filter" });
      if (v.event_ids && (v.status || v.source || v.type || v.hide_bookkeeping !== undefined)) {
        ctx.addIssue({ code: "custom", path: ["event_ids"], message: "give event_ids or a filter, not both" });
      }
    }),
  output: z.object({ requeued: z.array(z.string()) }),
  rest: { method: "POST", path: "/owner/events/requeue" },
  op: "event.requeue",
  handler: async (ctx, input) => {
    const { event_ids: eventIds, status, source, type, hide_bookkeeping: hideBookkeeping } = input;
    // The schema lets through exactly one of the two.
    const { requeued } = eventIds
      ? await requeueEvents(ctx.db, { actor: ctx.actor, eventIds })
      : await requeueEvents(ctx.db, { actor: ctx.actor, filter: { status: status ?? "dead", source, type, hideBookkeeping } });
    ctx.subject = requeued.length === 1 ? requeued[0] : null;
    return { requeued };
  },
});
