import { z } from "zod";
import { removeChannel } from "@/lib/channels/remove-channel";
import { defineTool } from "@/lib/tools/define-tool";

export const channelRemove = defineTool({
  name: "channel_remove",
  family: "brynth",
  scope: "approvals",
  description:
    "Removes a channel by `channel_id`: its links and buttons stop working, and its pending requests move to the owner. The owner channel cannot be removed.",
  input: z
    .object({
      channel_id: z
        .string()
        .regex(/^chn_[A-Za-z0-9]{1,40}$/, "must be a channel id, `chn_…`")
        .describe("Channel id, `chn_…`."),
    })
    .strict(),
  output: z.object({
    channel_id: z.string(),
    status: z.literal("removed"),
    moved_requests: z.number().int().describe("Pending requests that now go to the owner."),
  }),
  annotations: { title: "Remove an approval channel", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  rest: { method: "DELETE", path: "/channels/{channel_id}" },
  handler: async (ctx, input) => {
    ctx.subject = input.channel_id;
    return removeChannel(ctx.db, { actor: ctx.actor, channelId: input.channel_id });
  },
});
