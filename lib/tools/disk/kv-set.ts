import { z } from "zod";
import { setKey } from "@/lib/disk/set-key";
import { defineTool } from "@/lib/tools/define-tool";
import { ifVersionField, keyField, nullableIso, ttlField } from "@/lib/tools/disk/disk-fields";

export const kvSet = defineTool({
  name: "kv_set",
  family: "brynth",
  scope: "disk",
  description:
    "Saves any JSON `value` under `key` in the project disk, shared by every agent and platform with a `disk` key. Saving an existing key replaces its value. `ttl_seconds` (1 s to 365 days) makes the key expire; without it the key lives until `kv_delete`. Values up to 256 KB; a project holds up to 10,000 keys and 1 GB (`QUOTA_EXCEEDED`). Keys under `state/` belong to `state_save`. Returns `{key, size_bytes, expires_at}`.",
  jsonText: new Set(["value"]),
  input: z
    .object({
      key: keyField,
      value: z.unknown().optional().describe("Any JSON value, up to 256 KB once serialised. `kv_get` returns it as saved."),
      ttl_seconds: ttlField,
      if_version: ifVersionField,
    })
    .strict(),
  output: z.object({
    key: z.string(),
    size_bytes: z.number().int(),
    expires_at: nullableIso,
    version: z.number().int().describe("Version of the saved value; pass it as `if_version` to write it only if unchanged."),
  }),
  annotations: { title: "Set a key", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rest: { method: "PUT", path: "/kv/{key}", ifMatch: "if_version", etag: "version" },
  example: { key: "examples/greeting", value: { hello: "world" } },
  handler: async (ctx, input) => {
    ctx.subject = input.key;
    return setKey(ctx.db, { actor: ctx.actor, key: input.key, value: input.value, ttlSeconds: input.ttl_seconds, ifVersion: input.if_version });
  },
});
