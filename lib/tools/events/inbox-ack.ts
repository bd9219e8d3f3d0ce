import { z } from "zod";
import { ackEvent } from "@/lib/events/ack-event";
import { defineTool } from "@/lib/tools/define-tool";
import { eventId, FENCE_NOTE, leaseToken } from "@/lib/tools/events/event-id";

export const MAX_RESULT_BYTES = 4096;

export const inboxAck = defineTool({
  name: "inbox_ack",
  family: "brynth",
  scope: "inbox:write",
  description: `Closes an event you claimed. Optional \`result\` (text or JSON, max 4 KB) records what you did. Repeating the ack is safe. ${FENCE_NOTE}`,
  input: z
    .object({
      event_id: eventId,
      result: z
        .unknown()
        .refine((r) => r === undefined || Buffer.byteLength(JSON.stringify(r) ?? "") <= MAX_RESULT_BYTES, {
          message: "at most 4 KB (4096 bytes) serialized",
        })
        .optional()
        .describe("What you did: text or JSON, at most 4 KB serialized."),
      lease_token: leaseToken,
    })
    .strict(),
  output: z.object({
    event_id: z.string(),
    status: z.literal("done"),
    finished_at: z.string(),
    repeated: z.boolean().describe("true when this event was already acked by you: nothing changed."),
  }),
  annotations: { title: "Acknowledge an event", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rest: { method: "POST", path: "/events/{event_id}/ack" },
  handler: async (ctx, input) => {
    const done = await ackEvent(ctx.db, {
      actor: ctx.actor,
      eventId: input.event_id,
      result: input.result,
      leaseToken: input.lease_token,
    });
    ctx.subject = done.id;
    return { event_id: done.id, status: "done" as const, finished_at: done.finishedAt.toISOString(), repeated: done.repeated };
  },
});
