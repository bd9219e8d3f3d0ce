import fc from "fast-check";
import type { JsonSchema } from "@/lib/tools/json-schema";

/** Longest string a valid-shaped value gets: long ones are the adversarial generators' job (odd-values.ts). */
const MAX_STRING = 40;
const MAX_ITEMS = 3;

/**
 * Values shaped as a tool's JSON Schema (lib/tools/json-schema.ts) says: right types, enums, patterns, formats and
 * bounds. Not every one is valid (cross-field rules, ids that exist), which is the point: they reach the handler.
 */
export function fromJsonSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => fromJsonSchema(s, depth)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length !== 1) return fc.jsonValue({ maxDepth: 2 });
  switch (types[0]) {
    case "string":
      return stringOf(schema);
    case "integer":
      return fc.integer({ min: bound(schema.minimum, -1e6), max: bound(schema.maximum, 1e6) });
    case "number":
      return fc.double({ min: bound(schema.minimum, -1e9), max: bound(schema.maximum, 1e9), noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = schema.items ? fromJsonSchema(schema.items as JsonSchema, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      const minLength = (schema.minItems as number | undefined) ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min((schema.maxItems as number | undefined) ?? MAX_ITEMS, MAX_ITEMS)) });
    }
    case "object":
      return objectOf(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Schema bounds clamped to safe integers (fast-check refuses wider integer ranges). */
const bound = (v: unknown, fallback: number) => (typeof v === "number" ? Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, v)) : fallback);

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.max(minLength, Math.min((schema.maxLength as number | undefined) ?? MAX_STRING, MAX_STRING));
  if (schema.format === "email") return fc.emailAddress();
  if (schema.format === "date-time")
    return fc.date({ noInvalidDate: true, min: new Date("1970-01-01"), max: new Date("2100-01-01") }).map((d) => d.toISOString());
  if (typeof schema.pattern === "string") {
    try {
      return fc.stringMatching(new RegExp(schema.pattern), { size: "xsmall" }).filter((s) => s.length >= minLength && s.length <= maxLength);
    } catch {
      // A pattern fast-check cannot generate from (lookarounds): plain strings, refused by the schema, still fuzz it.
    }
  }
  return fc.string({ minLength, maxLength });
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = schema.properties;
  if (!props || Object.keys(props).length === 0) {
    return depth > 2 ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  }
  const required = (schema.required as string[] | undefined) ?? [];
  const shape = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, fromJsonSchema(s, depth + 1)]));
  return fc.record(shape, { requiredKeys: required.filter((k) => k in shape) });
}
