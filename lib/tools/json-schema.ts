import { z } from "zod";
import type { AnyTool } from "@/lib/tools/run-tool";
import { toolView, type Transport } from "@/lib/tools/casing/tool-casing";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; type?: string | string[] };

const caches = {
  mcp: new WeakMap<AnyTool, { input: JsonSchema; output: JsonSchema }>(),
  rest: new WeakMap<AnyTool, { input: JsonSchema; output: JsonSchema }>(),
};
const shownAs = new WeakMap<object, z.ZodType>();

/**
 * A field parsed loosely at the boundary, because its domain function checks it with better messages (naming the
 * policy rule at fault, say), but shown to clients with its full structure, so no input is documented as `{}`.
 */
export function documentedAs<T extends z.ZodType>(schema: T, shown: z.ZodType): T {
  shownAs.set(schema, shown);
  return schema;
}

const ANY_JSON = ["object", "array", "string", "number", "boolean", "null"];

const toJson = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: (ctx) => {
      const shown = shownAs.get(ctx.zodSchema);
      if (shown) Object.assign(ctx.jsonSchema, toJson(shown, io), { description: ctx.jsonSchema.description });
      // "Any JSON value" said as such: `{}` reads as a forgotten schema, to people and to strict clients alike.
      const kind = ctx.zodSchema._zod.def.type;
      // (`additionalProperties: true` is the default, spelled out so generators type an object as a map, not `{}`.)
      if ((kind === "unknown" || kind === "any") && !shown) Object.assign(ctx.jsonSchema, { type: ANY_JSON, additionalProperties: true });
    },
  }) as JsonSchema;
  return rest;
};

/**
 * Computed once per tool and transport: tools/list (MCP), OpenAPI and REST query coercion (REST) read these. They
 * differ only for the mailbox family, whose REST callers write snake_case (design D4).
 */
export function toolSchemas(tool: AnyTool, transport: Transport = "mcp"): { input: JsonSchema; output: JsonSchema } {
  const cache = caches[transport];
  let hit = cache.get(tool);
  if (!hit) {
    const view = toolView(tool, transport);
    hit = { input: toJson(view.input, "input"), output: toJson(view.output, "output") };
    cache.set(tool, hit);
  }
  return hit;
}
export type { JsonSchema };
