import { z } from "zod";
import { getFile } from "@/lib/disk/get-file";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { fileShape, pathField } from "@/lib/tools/disk/disk-fields";

export const fileGet = defineTool({
  name: "file_get",
  family: "brynth",
  scope: "disk",
  description:
    "Reads a file of the project disk by `path` or `disk://` reference, or an inbound email attachment as `evt_…/name` (the names listed in the event). Up to 1 MB it answers `{path, ref, size_bytes, content_type, updated_at, content_base64}`; above, `download_url` and `expires_at` take the place of `content_base64`: a link valid 5 minutes that works without a key, each download counted toward the project's 5 GB a month. A missing file answers `NOT_FOUND`.",
  input: z.object({ path: pathField }).strict(),
  output: z.object({
    ...fileShape,
    content_base64: z.string().optional(),
    download_url: z.string().optional(),
    expires_at: z.string().optional(),
  }),
  annotations: { ...readOnly, title: "Read a file" },
  rest: { method: "GET", path: "/files/{path}" },
  untrusted: true,
  handler: async (ctx, input) => {
    ctx.subject = input.path;
    return getFile(ctx.db, { actor: ctx.actor, path: input.path });
  },
});
