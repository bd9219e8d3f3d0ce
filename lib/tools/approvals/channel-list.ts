import { z } from "zod";
import { listChannels } from "@/lib/channels/list-channels";
import { channelView } from "@/lib/channels/channel-view";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { channelShape } from "@/lib/tools/approvals/channel-shape";

export const channelList = defineTool({
  name: "channel_list",
  family: "brynth",
  scope: "approvals",
  description:
    "Lists the channels of the project, owner first, with status and a masked address. Pass the `id` of active channels as `approvers` to choose who is asked.",
  input: z.object({}).strict(),
  output: z.object({ channels: z.array(channelShape) }),
  annotations: { ...readOnly, title: "List approval channels" },
  rest: { method: "GET", path: "/channels" },
  example: {},
  handler: async (ctx) => ({ channels: (await listChannels(ctx.db, ctx.actor.projectId)).map(channelView) }),
});
