import { z } from "zod";
import { listFiles } from "@/lib/disk/list-files";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { cursorField, fileShape, limitField, pathPrefixField } from "@/lib/tools/disk/disk-fields";

export const fileList = defineTool({
  name: "file_list",
  family: "brynth",
  scope: "disk",
  description:
    "Lists the files of the project disk whose path starts with `prefix`, in byte order, without content: `{items: [{path, ref, size_bytes, content_type, updated_at}], next_cursor}`. Pass `next_cursor` back as `cursor` for the next page; `limit` 1 to 100, default 20.",
  input: z
    .object({
      prefix: pathPrefixField("Only files whose path starts with this text, e.g. `reports/`. Empty: every file."),
      cursor: cursorField,
      limit: limitField,
    })
    .strict(),
  output: z.object({ items: z.array(z.object(fileShape)), next_cursor: z.string().nullable() }),
  annotations: { ...readOnly, title: "List files" },
  rest: { method: "GET", path: "/files" },
  example: { prefix: "examples/" },
  handler: async (ctx, input) => listFiles(ctx.db, { actor: ctx.actor, ...input }),
});
