import { z } from "zod";
import { NOTE_MAX_CHARS } from "@/lib/disk/limits";
import { saveState } from "@/lib/disk/save-state";
import { defineTool } from "@/lib/tools/define-tool";
import { ifVersionField, taskIdField } from "@/lib/tools/disk/disk-fields";

export const stateSave = defineTool({
  name: "state_save",
  family: "brynth",
  scope: "disk",
  description:
    "Saves where a task stands, so that this or another session on any platform can resume it with `state_load`. Call it before stopping on a `pending` approval and at the end of a session with work left. `state` is any JSON (what is done, what comes next, IDs such as `request_id`), up to 256 KB; `note` is a one-line summary of up to 500 characters. It replaces the previous state of `task_id` and never expires. Returns `{task_id, key, saved_at}`.",
  jsonText: new Set(["state"]),
  input: z
    .object({
      task_id: taskIdField,
      state: z
        .unknown()
        .optional()
        .describe("Any JSON: what is done, what comes next and the IDs you need to resume (e.g. `request_id`). Up to 256 KB once saved."),
      note: z.string().max(NOTE_MAX_CHARS).optional().describe("Optional, up to 500 characters: a one-line summary for whoever resumes the task."),
      if_version: ifVersionField,
    })
    .strict(),
  output: z.object({
    task_id: z.string(),
    key: z.string(),
    saved_at: z.string(),
    version: z.number().int().describe("Version of the saved state; pass it as `if_version` to save only if unchanged."),
  }),
  annotations: { title: "Save task state", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rest: { method: "PUT", path: "/state/{task_id}", ifMatch: "if_version", etag: "version" },
  example: { task_id: "example-task", state: { step: 1 }, note: "Example" },
  handler: async (ctx, input) => {
    ctx.subject = input.task_id;
    return saveState(ctx.db, { actor: ctx.actor, taskId: input.task_id, state: input.state, note: input.note, ifVersion: input.if_version });
  },
});
