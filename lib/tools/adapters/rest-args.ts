import type { z } from "zod";
import type { ApiRequest } from "@/lib/http/api-request";
import { z as zod } from "zod";
import { AppError } from "@/lib/errors";
import { oneQueryValue } from "@/lib/http/one-query-value";
import { readJson } from "@/lib/http/read-body";
import { env } from "@/lib/env";
import type { JsonSchema } from "@/lib/tools/json-schema";

const schemaCache = new WeakMap<z.ZodType, JsonSchema>();
function propertyTypes(input: z.ZodType): Record<string, JsonSchema> {
  let s = schemaCache.get(input);
  if (!s) {
    s = zod.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as JsonSchema;
    schemaCache.set(input, s);
  }
  return s.properties ?? {};
}

const typesOf = (p: JsonSchema | undefined): string[] => {
  if (!p) return [];
  if (p.type) return Array.isArray(p.type) ? p.type : [p.type];
  const alts = (p.anyOf ?? p.oneOf) as JsonSchema[] | undefined;
  return alts ? alts.flatMap(typesOf) : [];
};

/**
 * Query strings are text: numbers, booleans and arrays are coerced by the tool's own schema before parsing. A list
 * argument is its key repeated (`?labels=a&labels=b`); any other argument the schema names is refused given twice
 * (oneQueryValue). One it does not name is left to the schema, which refuses it by name.
 */
function coerce(key: string, value: string[], prop: JsonSchema | undefined): unknown {
  const types = typesOf(prop);
  if (types.includes("array")) return value;
  const v = prop ? oneQueryValue(key, value) : value[value.length - 1];
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (types.includes("boolean") && (v === "true" || v === "false")) return v === "true";
  return v;
}

/**
 * A query parameter as an argument of its own, whatever its name: `args.__proto__ = "x"` would set the object's
 * prototype (a string is ignored), so `?__proto__=x` vanished before the schema could refuse it as unknown.
 */
function setArg(args: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
}
const ownProp = <T>(props: Record<string, T>, key: string): T | undefined => (Object.hasOwn(props, key) ? props[key] : undefined);

/**
 * The tool's arguments from a REST request: path params, the query, and the JSON body (POST/PUT/PATCH), all
 * parsed afterwards by the tool's own schema. With `bodyArg` the body is that one argument's value.
 */
export async function restArgs(req: ApiRequest, url: URL, input: z.ZodType, params: Record<string, string>, bodyArg?: string) {
  const props = propertyTypes(input);
  let args: Record<string, unknown> = {};
  if (req.method === "GET" || req.method === "DELETE") {
    for (const key of new Set(url.searchParams.keys())) setArg(args, key, coerce(key, url.searchParams.getAll(key), ownProp(props, key)));
  } else {
    const body = await readJson(req, env().MAX_BODY_BYTES);
    if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) {
      throw new AppError("validation_error", "The request body must be a JSON object.", { fix: "Send the tool's arguments as a JSON object." });
    }
    args = bodyArg ? (body === undefined ? {} : { [bodyArg]: body }) : ((body as Record<string, unknown>) ?? {});
    // A query parameter of a write is an argument too (`POST /lists/receive/block?inbox_id=…`), as long as the body
    // does not also give it.
    for (const key of new Set(url.searchParams.keys())) {
      if (Object.hasOwn(args, key)) {
        throw new AppError("validation_error", `${key}: given both in the query and in the body.`, { fix: `Send ${key} once.` });
      }
      setArg(args, key, coerce(key, url.searchParams.getAll(key), ownProp(props, key)));
    }
  }
  // A path segment is text as a query value is, and is read the same way: `/versions/0x1` stays the string "0x1",
  // which a number argument refuses by name.
  for (const [name, text] of Object.entries(params)) {
    const value = coerce(name, [text], ownProp(props, name));
    if (Object.hasOwn(args, name) && args[name] !== value) {
      throw new AppError("validation_error", `${name}: differs between the path and the body.`, { fix: `Send ${name} in the path only.` });
    }
    args[name] = value;
  }
  return args;
}
