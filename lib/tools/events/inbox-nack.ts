import { z } from "zod";
import { nackEvent } from "@/lib/events/nack-event";
import { defineTool } from "@/lib/tools/define-tool";
import { writes } from "@/lib/tools/fields";
import { eventId, FENCE_NOTE, leaseToken } from "@/lib/tools/events/event-id";

export const inboxNack = defineTool({
  name: "inbox_nack",
  family: "brynth",
  scope: "inbox:write",
  description: `Gives back an event you claimed with a \`reason\`. It is retried later with a growing delay, and dropped (\`dead\`) after 5 attempts or at once with \`retry: false\`. ${FENCE_NOTE}`,
  input: z
    .object({
      event_id: eventId,
      reason: z.string().min(1).max(100_000).describe("Why it failed. Stored cut to 1 KB."),
      retry: z.boolean().default(true).describe("Default true. `false` sends the event to `dead` at once."),
      lease_token: leaseToken,
    })
    .strict(),
  output: z.object({
    event_id: z.string(),
    status: z.enum(["failed", "dead"]).describe("`failed`: retried at `retry_at`; `dead`: no more attempts."),
    attempts: z.number().int(),
    retry_at: z.string().nullable(),
  }),
  annotations: { ...writes, title: "Give back an event" },
  rest: { method: "POST", path: "/events/{event_id}/nack" },
  handler: async (ctx, input) => {
    const out = await nackEvent(ctx.db, {
      actor: ctx.actor,
      eventId: input.event_id,
      reason: input.reason,
      retry: input.retry,
      leaseToken: input.lease_token,
    });
    ctx.subject = out.id;
    return { event_id: out.id, status: out.status, attempts: out.attempts, retry_at: out.retryAt?.toISOString() ?? null };
  },
});
