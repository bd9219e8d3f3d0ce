import type { z } from "zod";
import { snakeCase } from "@/lib/tools/casing/snake-case";

/**
 * How to rename the keys of a value that a schema parses, computed once per schema so a call walks only its data.
 * Only keys declared in a `z.object` shape are renamed: records (user `metadata`, custom `headers`), `z.unknown()`,
 * `z.any()` and transforms have no plan, so their contents pass verbatim.
 */
export interface KeyPlan {
  /** Anything renamed at or below this node; when false the value is passed on as it is, unwalked. */
  renames: boolean;
  /** For a plain-object value. */
  object?: ObjectPlan;
  /** For each element of an array value. */
  element?: KeyPlan;
}

export interface ObjectPlan {
  /** Declared key (as the schema spells it) → its snake_case name and the plan for its value. */
  fields: Map<string, { snake: string; plan: KeyPlan | null }>;
  /** snake_case name → declared key. */
  fromSnake: Map<string, string>;
  /** Undeclared keys: refused (strict object), dropped (the default strip) or kept verbatim (loose or catchall). */
  extra: "refuse" | "drop" | "keep";
}

/** Which side of a pipe the data is on: arguments before parsing, results after it. */
export type Io = "input" | "output";

const caches = { input: new WeakMap<z.ZodType, KeyPlan | null>(), output: new WeakMap<z.ZodType, KeyPlan | null>() };

export function keyPlan(schema: z.ZodType, io: Io): KeyPlan | null {
  const cache = caches[io];
  if (!cache.has(schema)) cache.set(schema, build(schema, io, new Set()));
  return cache.get(schema) ?? null;
}

// biome-ignore lint/suspicious/noExplicitAny: zod's def is a union of every schema kind's def; each case reads its own fields
type AnyDef = any;

function build(schema: z.ZodType, io: Io, open: Set<z.ZodType>): KeyPlan | null {
  const def: AnyDef = schema._zod.def;
  const sub = (s: z.ZodType) => build(s, io, open);
  switch (def.type) {
    case "object":
      return objectPlan(def, sub);
    case "array":
      return arrayPlan(sub(def.element));
    case "tuple":
      return arrayPlan(merge([...def.items, ...(def.rest ? [def.rest] : [])].map(sub)));
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "success":
      return sub(def.innerType);
    case "pipe": {
      // z.preprocess is a pipe whose input side is a transform: the arguments are the output side's shape.
      if (io === "input") return sub(def.in._zod.def.type === "transform" ? def.out : def.in);
      return def.out._zod.def.type === "transform" ? null : sub(def.out);
    }
    case "union":
      return merge(def.options.map(sub));
    case "intersection":
      return merge([sub(def.left), sub(def.right)]);
    case "lazy": {
      // A recursive schema would need a cyclic plan; no tool has one, so it is refused where it is defined.
      if (open.has(schema)) throw new Error("Key casing does not support recursive schemas.");
      open.add(schema);
      const plan = sub((schema._zod as unknown as { innerType: z.ZodType }).innerType);
      open.delete(schema);
      return plan;
    }
    default:
      return null;
  }
}

function objectPlan(def: AnyDef, sub: (s: z.ZodType) => KeyPlan | null): KeyPlan {
  const fields: ObjectPlan["fields"] = new Map();
  const fromSnake: ObjectPlan["fromSnake"] = new Map();
  let renames = false;
  for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) {
    const snake = snakeCase(key);
    const clash = fromSnake.get(snake);
    if (clash !== undefined) throw new Error(`Keys "${clash}" and "${key}" are both "${snake}" in snake_case.`);
    const plan = sub(child);
    fields.set(key, { snake, plan });
    fromSnake.set(snake, key);
    renames ||= snake !== key || Boolean(plan?.renames);
  }
  const catchall = def.catchall?._zod.def.type;
  const extra = catchall === undefined ? "drop" : catchall === "never" ? "refuse" : "keep";
  return { renames, object: { fields, fromSnake, extra } };
}

const arrayPlan = (element: KeyPlan | null): KeyPlan | null => (element ? { renames: element.renames, element } : null);

/** A union's options (or an intersection's sides) as one plan: whichever option a value matches, its keys convert. */
function merge(plans: (KeyPlan | null)[]): KeyPlan | null {
  const some = plans.filter((p): p is KeyPlan => p !== null);
  if (some.length <= 1) return some[0] ?? null;
  const objects = some.flatMap((p) => (p.object ? [p.object] : []));
  const element = merge(some.map((p) => p.element ?? null));
  const object = objects.length ? mergeObjects(objects) : undefined;
  const renames = some.some((p) => p.renames);
  return { renames, ...(object ? { object } : {}), ...(element ? { element } : {}) };
}

function mergeObjects(objects: ObjectPlan[]): ObjectPlan {
  const fields: ObjectPlan["fields"] = new Map();
  const fromSnake: ObjectPlan["fromSnake"] = new Map();
  for (const o of objects) {
    for (const [key, { snake, plan }] of o.fields) {
      const clash = fromSnake.get(snake);
      if (clash !== undefined && clash !== key) throw new Error(`Keys "${clash}" and "${key}" are both "${snake}" in snake_case.`);
      const had = fields.get(key);
      fields.set(key, { snake, plan: had ? merge([had.plan, plan]) : plan });
      fromSnake.set(snake, key);
    }
  }
  const extras = objects.map((o) => o.extra);
  const extra = extras.includes("keep") ? "keep" : extras.every((e) => e === "refuse") ? "refuse" : "drop";
  return { fields, fromSnake, extra };
}
