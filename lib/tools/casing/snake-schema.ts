import { z } from "zod";
import { snakeCase } from "@/lib/tools/casing/snake-case";

const cache = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The same schema with every declared object key in snake_case: what REST callers send and every caller receives,
 * published as JSON Schema (tools/list `outputSchema`, OpenAPI). Records, `z.unknown()` and transforms are kept as
 * they are, and a part with nothing to rename is the very same instance, so its metadata stays attached.
 */
export function snakeSchema<S extends z.ZodType>(schema: S): S {
  let hit = cache.get(schema);
  if (!hit) {
    hit = rebuild(schema);
    cache.set(schema, hit);
  }
  return hit as S;
}

// biome-ignore lint/suspicious/noExplicitAny: zod's def is a union of every schema kind's def; each case reads its own fields
type AnyDef = any;

function rebuild(schema: z.ZodType): z.ZodType {
  const def: AnyDef = schema._zod.def;
  switch (def.type) {
    case "object": {
      const shape: Record<string, z.ZodType> = {};
      let changed = false;
      for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const name = snakeCase(key);
        if (name in shape) throw new Error(`Two keys are "${name}" in snake_case.`);
        shape[name] = snakeSchema(child);
        changed ||= name !== key || shape[name] !== child;
      }
      return changed ? withDef(schema, { shape }) : schema;
    }
    case "array":
      return swap(schema, { element: def.element });
    case "tuple": {
      const items = (def.items as z.ZodType[]).map(snakeSchema);
      const rest = def.rest ? snakeSchema(def.rest) : def.rest;
      const changed = rest !== def.rest || items.some((s, i) => s !== def.items[i]);
      return changed ? withDef(schema, { items, rest }) : schema;
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "success":
      return swap(schema, { innerType: def.innerType });
    case "pipe":
      return swap(schema, { in: def.in, out: def.out });
    case "intersection":
      return swap(schema, { left: def.left, right: def.right });
    case "union": {
      const options = (def.options as z.ZodType[]).map(snakeSchema);
      if (options.every((s, i) => s === def.options[i])) return schema;
      return withDef(schema, def.discriminator ? { options, discriminator: snakeCase(def.discriminator) } : { options });
    }
    case "lazy": {
      // zod caches the resolved inner schema on the def (`_cachedInner`); the copy must resolve its own.
      const inner = () => (schema._zod as unknown as { innerType: z.ZodType }).innerType;
      return withDef(schema, { getter: () => snakeSchema(inner()), _cachedInner: undefined });
    }
    default:
      return schema;
  }
}

/** The schema with the given child schemas converted, or itself when none changes. */
function swap(schema: z.ZodType, children: Record<string, z.ZodType>): z.ZodType {
  const patch: Record<string, z.ZodType> = {};
  let changed = false;
  for (const [name, child] of Object.entries(children)) {
    patch[name] = snakeSchema(child);
    changed ||= patch[name] !== child;
  }
  return changed ? withDef(schema, patch) : schema;
}

/**
 * A copy with some def fields replaced. The def is copied with its getters (a `default` stays a fresh value per parse)
 * and the description and other metadata are carried over: zod keeps them in a registry keyed by instance. A copy is
 * for publishing only: an object-level refinement written against the original keys would not hold for it.
 */
function withDef(schema: z.ZodType, patch: Record<string, unknown>): z.ZodType {
  const def = Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema._zod.def));
  for (const [name, value] of Object.entries(patch)) Object.defineProperty(def, name, { value, enumerable: true, configurable: true, writable: true });
  const copy = schema.clone(def as typeof schema._zod.def);
  // An `id` names one schema in the registry; the copy must not take that name from the original.
  const { id: _, ...meta } = z.globalRegistry.get(schema) ?? {};
  if (Object.keys(meta).length) z.globalRegistry.add(copy, meta);
  return copy;
}
