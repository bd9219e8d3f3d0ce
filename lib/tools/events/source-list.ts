import { z } from "zod";
import { listSources } from "@/lib/sources/list-sources";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { sourceShape } from "@/lib/tools/events/source-shape";

export const sourceList = defineTool({
  name: "source_list",
  family: "brynth",
  scope: "admin",
  description: "Lists the active sources of the project with their webhook `url` or email `address`. Use it to find where events arrive from.",
  input: z.object({}).strict(),
  output: z.object({ sources: z.array(sourceShape) }),
  annotations: { ...readOnly, title: "List event sources" },
  rest: { method: "GET", path: "/sources" },
  example: {},
  handler: async (ctx) => ({ sources: await listSources(ctx.db, { actor: ctx.actor }) }),
});
