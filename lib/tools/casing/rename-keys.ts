import type { KeyPlan } from "@/lib/tools/casing/key-plan";

/** Only JSON-like objects have keys to rename: a Date or a Buffer passes as it is. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A result in snake_case: declared keys renamed, everything else (record keys, opaque values) kept verbatim. */
export function toSnakeKeys(plan: KeyPlan | null, value: unknown): unknown {
  if (!plan?.renames) return value;
  if (Array.isArray(value)) return plan.element ? value.map((v) => toSnakeKeys(plan.element ?? null, v)) : value;
  if (!plan.object || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  // for…in over an own-keys-only plain object: no entries array per object (results hold many).
  for (const key in value) {
    const field = plan.object.fields.get(key);
    if (field) out[field.snake] = field.plan?.renames ? toSnakeKeys(field.plan, value[key]) : value[key];
    else out[key] = value[key];
  }
  return out;
}

/** An undeclared key a snake_case caller sent to a strict object, at its path in the caller's casing. */
export interface UnknownKeys {
  path: (string | number)[];
  keys: string[];
}

/**
 * Arguments written in snake_case, renamed to the schema's own keys for parsing. Undeclared keys of strict objects
 * are left out and reported in `unknown`: kept, `inboxId` sent over REST would pass as the declared key itself.
 */
export function fromSnakeKeys(plan: KeyPlan | null, value: unknown, unknown: UnknownKeys[], path: (string | number)[] = []): unknown {
  if (!plan?.renames) return value;
  if (Array.isArray(value)) return plan.element ? value.map((v, i) => fromSnakeKeys(plan.element ?? null, v, unknown, [...path, i])) : value;
  const object = plan.object;
  if (!object || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  const refused: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const declared = object.fromSnake.get(key);
    if (declared !== undefined) {
      const child = object.fields.get(declared)?.plan ?? null;
      out[declared] = child?.renames ? fromSnakeKeys(child, v, unknown, [...path, key]) : v;
    } else if (object.extra === "refuse") refused.push(key);
    else if (object.extra === "keep" && !(key in out)) out[key] = v;
  }
  if (refused.length) unknown.push({ path, keys: refused });
  return out;
}

/** A path into parsed data (the schema's keys) as a snake_case caller wrote it; record keys stay verbatim. */
export function snakePath(plan: KeyPlan | null, path: readonly PropertyKey[]): (string | number)[] {
  const out: (string | number)[] = [];
  let at = plan;
  for (const seg of path) {
    if (typeof seg === "number") {
      out.push(seg);
      at = at?.element ?? null;
      continue;
    }
    const field = typeof seg === "string" ? at?.object?.fields.get(seg) : undefined;
    out.push(field ? field.snake : String(seg));
    at = field?.plan ?? null;
  }
  return out;
}
