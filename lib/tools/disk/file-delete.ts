import { z } from "zod";
import { deleteFile } from "@/lib/disk/delete-file";
import { defineTool } from "@/lib/tools/define-tool";
import { pathField } from "@/lib/tools/disk/disk-fields";

export const fileDelete = defineTool({
  name: "file_delete",
  family: "brynth",
  scope: "disk",
  description:
    "Deletes the file at `path` (or `disk://` reference) and revokes its links: `{deleted: true}` if it existed, `{deleted: false}` if it did not. Its space is freed at once; the content is erased within minutes.",
  input: z.object({ path: pathField }).strict(),
  output: z.object({ deleted: z.boolean() }),
  annotations: { title: "Delete a file", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rest: { method: "DELETE", path: "/files/{path}" },
  example: { path: "examples/absent.txt" },
  handler: async (ctx, input) => {
    ctx.subject = input.path;
    const { deleted, file } = await deleteFile(ctx.db, { actor: ctx.actor, path: input.path });
    if (file) ctx.subject = file.id;
    return { deleted };
  },
});
