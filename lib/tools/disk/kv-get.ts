import { z } from "zod";
import { getKey } from "@/lib/disk/get-key";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { keyField, nullableIso } from "@/lib/tools/disk/disk-fields";

export const kvGet = defineTool({
  name: "kv_get",
  family: "brynth",
  scope: "disk",
  description:
    "Reads `key` from the project disk: `{key, value, expires_at, updated_at}` with `value` exactly as saved, or `null` if the key does not exist or has expired. It also reads task state under `state/`, but `state_load` is simpler for that.",
  input: z.object({ key: keyField }).strict(),
  output: z.object({
    key: z.string(),
    value: z.unknown().describe("The value exactly as saved; null when the key does not exist or has expired."),
    expires_at: nullableIso,
    updated_at: nullableIso,
    version: z.number().int().nullable().describe("Pass as `if_version` to kv_set to write only if nobody changed it since."),
  }),
  annotations: { ...readOnly, title: "Get a key" },
  rest: { method: "GET", path: "/kv/{key}", etag: "version" },
  example: { key: "examples/greeting" },
  handler: async (ctx, input) => {
    ctx.subject = input.key;
    return getKey(ctx.db, { actor: ctx.actor, key: input.key });
  },
});
