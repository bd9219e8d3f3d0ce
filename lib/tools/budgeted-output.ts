import { z } from "zod";
import { snakeCase } from "@/lib/tools/casing/snake-case";
import { BUDGET_CONTENT_KEYS, BUDGET_ID_KEYS } from "@/lib/tools/result-budget";

const budgeted = new WeakSet<z.ZodType>();

/** Whether an output schema came from `budgetedOutput` (defineTool refuses a budgeted tool without one). */
export const isBudgetedOutput = (schema: z.ZodType) => budgeted.has(schema);

/**
 * The output schema of a tool under the MCP result budget: every field but the identifiers becomes optional, at
 * every depth, content fields lose their length checks, and `truncated`/`fix` are declared, so any rung of the
 * ladder still validates. The MCP SDK client checks structuredContent against the published outputSchema and
 * would otherwise refuse a shortened result. Typed as the full schema on purpose: a handler must still return
 * everything; only the budget may leave fields out.
 */
export function budgetedOutput<T extends z.ZodObject>(schema: T): T {
  const out = relaxObject(schema, {
    truncated: z.literal(true).optional().describe("Present when content was shortened or left out to fit the MCP result budget."),
    fix: z.string().optional().describe("Present with `truncated`: where to fetch the full content (REST is never shortened)."),
  });
  budgeted.add(out);
  return out as unknown as T;
}

type Schema = z.core.$ZodType;

function relaxObject(schema: z.ZodObject, extra: Record<string, Schema> = {}): z.ZodObject {
  const shape: Record<string, Schema> = {};
  for (const [k, field] of Object.entries(schema.shape)) {
    // Mailbox schemas are written in camelCase and their results renamed to snake_case (design D4): match both.
    const name = snakeCase(k);
    shape[k] = BUDGET_ID_KEYS.has(name) ? field : z.optional(relax(field, BUDGET_CONTENT_KEYS.has(name)));
  }
  return withMeta(schema, schema.clone({ ...schema._zod.def, shape: { ...shape, ...extra } }));
}

function relax(schema: Schema, content: boolean): Schema {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (schema instanceof z.ZodObject) return relaxObject(schema);
  if (schema instanceof z.ZodArray) return withMeta(schema, schema.clone({ ...schema._zod.def, element: relax(schema.element, content) }));
  if (schema instanceof z.ZodUnion) {
    return withMeta(schema, schema.clone({ ...schema._zod.def, options: schema.options.map((o) => relax(o, content)) }));
  }
  // optional, nullable, default, readonly and the other wrappers: relax what they wrap.
  if (def.innerType instanceof z.core.$ZodType)
    return withMeta(schema, (schema as z.ZodType).clone({ ...def, innerType: relax(def.innerType as Schema, content) } as typeof def));
  // A shortened content string may be empty: its checks (min length, format) no longer hold.
  if (content && def.type === "string") return withMeta(schema, z.string());
  return schema;
}

/** Descriptions live in zod's registry, keyed by schema instance: a rebuilt schema takes them over. */
function withMeta<T extends z.ZodType>(from: Schema, to: T): T {
  const meta = z.globalRegistry.get(from);
  return meta ? (to.meta(meta) as T) : to;
}
