import { z } from "zod";
import { listKeys } from "@/lib/disk/list-keys";
import { KEY_MAX_BYTES } from "@/lib/disk/limits";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { cursorField, limitField, nullableIso, prefixField } from "@/lib/tools/disk/disk-fields";

export const kvList = defineTool({
  name: "kv_list",
  family: "brynth",
  scope: "disk",
  description:
    "Lists the keys of the project disk that start with `prefix`, in byte order, without values: `{items: [{key, size_bytes, expires_at, updated_at}], next_cursor}`. Expired keys are left out. Pass `next_cursor` back as `cursor` for the next page; `limit` 1 to 100, default 20.",
  input: z
    .object({
      prefix: prefixField(KEY_MAX_BYTES, "Only keys that start with this text, e.g. `orders/`. Empty: every key."),
      cursor: cursorField,
      limit: limitField,
    })
    .strict(),
  output: z.object({
    items: z.array(z.object({ key: z.string(), size_bytes: z.number().int(), expires_at: nullableIso, updated_at: z.string(), version: z.number().int() })),
    next_cursor: z.string().nullable(),
  }),
  annotations: { ...readOnly, title: "List keys" },
  rest: { method: "GET", path: "/kv" },
  example: { prefix: "examples/" },
  handler: async (ctx, input) => listKeys(ctx.db, { actor: ctx.actor, ...input }),
});
