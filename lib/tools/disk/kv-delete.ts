import { z } from "zod";
import { deleteKey } from "@/lib/disk/delete-key";
import { defineTool } from "@/lib/tools/define-tool";
import { keyField } from "@/lib/tools/disk/disk-fields";

export const kvDelete = defineTool({
  name: "kv_delete",
  family: "brynth",
  scope: "disk",
  description:
    "Deletes `key` from the project disk: `{deleted: true}` if it existed, `{deleted: false}` if it was absent or already expired. It also works on `state/{task_id}`, to drop the saved state of a task.",
  input: z.object({ key: keyField }).strict(),
  output: z.object({ deleted: z.boolean() }),
  annotations: { title: "Delete a key", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rest: { method: "DELETE", path: "/kv/{key}" },
  example: { key: "examples/absent" },
  handler: async (ctx, input) => {
    ctx.subject = input.key;
    return deleteKey(ctx.db, { actor: ctx.actor, key: input.key });
  },
});
