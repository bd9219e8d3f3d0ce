import { z } from "zod";
import type { AnyTool } from "@/lib/tools/run-tool";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; type?: string | string[] };

const cache = new WeakMap<AnyTool, { input: JsonSchema; output: JsonSchema }>();

/** Computed once per tool: tools/list, OpenAPI and REST query coercion all read these. */
export function toolSchemas(tool: AnyTool): { input: JsonSchema; output: JsonSchema } {
  let hit = cache.get(tool);
  if (!hit) {
    const strip = ({ $schema: _, ...rest }: JsonSchema) => rest;
    hit = {
      input: strip(z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as JsonSchema),
      output: strip(z.toJSONSchema(tool.output, { io: "output", unrepresentable: "any" }) as JsonSchema),
    };
    cache.set(tool, hit);
  }
  return hit;
}
export type { JsonSchema };
