import { z } from "zod";
import { loadState } from "@/lib/disk/load-state";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { nullableIso, taskIdField } from "@/lib/tools/disk/disk-fields";

export const stateLoad = defineTool({
  name: "state_load",
  family: "brynth",
  scope: "disk",
  description:
    "Loads the last state saved with `state_save` for `task_id`: `{task_id, state, note, saved_at}`, or `null` if none was saved or it was deleted. Call it when you resume a task, e.g. after its `request.resolved` event arrives in the inbox.",
  input: z.object({ task_id: taskIdField }).strict(),
  output: z.object({
    task_id: z.string(),
    state: z.unknown().describe("The saved state; null when none was saved or it was deleted."),
    note: z.string().nullable(),
    saved_at: nullableIso,
    version: z.number().int().nullable(),
  }),
  annotations: { ...readOnly, title: "Load task state" },
  rest: { method: "GET", path: "/state/{task_id}", etag: "version" },
  example: { task_id: "example-task" },
  handler: async (ctx, input) => {
    ctx.subject = input.task_id;
    return loadState(ctx.db, { actor: ctx.actor, taskId: input.task_id });
  },
});
