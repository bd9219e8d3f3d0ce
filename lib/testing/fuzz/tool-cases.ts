import fc from "fast-check";
import { toolSchemas, type JsonSchema } from "@/lib/tools/json-schema";
import type { AnyTool } from "@/lib/tools/run-tool";
import { fromJsonSchema } from "@/lib/testing/fuzz/from-json-schema";
import { nestedJson, oddValue, unknownKey } from "@/lib/testing/fuzz/odd-values";
import { percentEncode } from "@/lib/testing/fuzz/percent-encode";

/**
 * One generated call of a tool. `args` is always an object the MCP SDK client can send; `raw`, when set, replaces
 * one field's JSON text (or the whole arguments) with bytes no JSON serializer produces: invalid UTF-8, number
 * literals past a double's range, arguments that are not an object.
 */
export interface ToolCase {
  mutation: Mutation;
  args: Record<string, unknown>;
  raw?: { field: string | null; bytes: Uint8Array };
}

/** `deep` nests 5,000 levels, as text: see odd-values.ts. */
export type Mutation = "valid" | "example" | "odd_value" | "deep" | "unknown_key" | "missing_required" | "raw_number" | "invalid_utf8" | "not_object";

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Stands in for a field in `JSON.stringify`'s text until the raw bytes replace it. */
const MARKER = "\u0000fuzz-raw\u0000";

const RAW_NUMBERS = ["1e400", "-1e400", "-0", "9007199254740993", "1E+308", "-1e-400", "0.1e1", "123456789012345678901234567890"];
const INVALID_UTF8 = [
  [0xff],
  [0xc0, 0xaf], // overlong "/"
  [0xed, 0xa0, 0x80], // a surrogate encoded as UTF-8
  [0xe2, 0x82], // truncated
  [0xf8, 0x88, 0x80, 0x80, 0x80], // five-byte form
  [0x80],
];
const NOT_OBJECTS = ["[]", '"x"', "null", "5", "[{}]", "true", nestedJson(5_000)];
const DEEP = utf8(nestedJson(5_000));

/**
 * Tools that wait get a bounded wait, so a valid-shaped call answers within about a second instead of 45: the
 * value is kept when it is already invalid (a string, a negative or huge number), since refusing those is fuzzed too.
 */
const BOUNDED_WAITS: Record<string, number> = { wait_seconds: 0, timeout_seconds: 1 };

function boundWaits(schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  for (const [field, bounded] of Object.entries(BOUNDED_WAITS)) {
    if (!schema.properties?.[field]) continue;
    const v = args[field];
    if (v === undefined || (typeof v === "number" && v > bounded && v <= 120)) args[field] = bounded;
  }
  return args;
}

/**
 * Every kind of call for one tool, from its input schema: valid-shaped ones and each adversarial mutation of them.
 * `known` holds values that exist in the test's project (an event id, a source name), put in place of the generated
 * value now and then, so calls also get past "not found" to the handler's real work.
 */
export function toolCase(tool: AnyTool, known: Record<string, string[]> = {}): fc.Arbitrary<ToolCase> {
  const schema = toolSchemas(tool).input;
  const fields = Object.keys(schema.properties ?? {});
  const required = (schema.required as string[] | undefined) ?? [];
  // All known fields at once: inbox_wait's source and type must both match the seeded event for it to answer at once.
  const knownFields = fields.filter((f) => (known[f] ?? []).length > 0);
  const someKnown =
    knownFields.length > 0
      ? fc.option(fc.record(Object.fromEntries(knownFields.map((f) => [f, fc.constantFrom(...known[f])]))), { freq: 2 })
      : fc.constant(null);
  const valid = fc
    .tuple(fromJsonSchema(schema) as fc.Arbitrary<Record<string, unknown>>, someKnown)
    .map(([args, values]) => (values ? { ...args, ...values } : args));
  const field = fields.length > 0 ? fc.constantFrom(...fields) : fc.constant("bogus");
  const with_ = (args: Record<string, unknown>, key: string, value: unknown) => {
    const copy = { ...args };
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    return copy;
  };
  const cases: fc.Arbitrary<ToolCase>[] = [
    valid.map((args) => ({ mutation: "valid" as const, args })),
    fc.tuple(valid, field, oddValue).map(([args, f, v]) => ({ mutation: "odd_value" as const, args: with_(args, f, v) })),
    fc.tuple(valid, field).map(([args, f]) => ({ mutation: "deep" as const, args: with_(args, f, MARKER) })),
    fc.tuple(valid, unknownKey, oddValue).map(([args, k, v]) => ({ mutation: "unknown_key" as const, args: with_(args, k, v) })),
    fc.tuple(valid, field).map(([args, f]) => ({ mutation: "raw_number" as const, args: with_(args, f, MARKER) })),
    fc.tuple(valid, field).map(([args, f]) => ({ mutation: "invalid_utf8" as const, args: with_(args, f, MARKER) })),
    fc.constantFrom(...NOT_OBJECTS).map((text) => ({ mutation: "not_object" as const, args: {}, raw: { field: null, bytes: utf8(text) } })),
  ];
  if (tool.example !== undefined) cases.push(fc.constant({ mutation: "example" as const, args: { ...(tool.example as Record<string, unknown>) } }));
  if (required.length > 0) {
    cases.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([args, f]) => {
        const { [f]: _, ...rest } = args;
        return { mutation: "missing_required" as const, args: rest };
      }),
    );
  }
  // Valid-shaped calls as often as all mutations together: they are what reaches the handlers and the database.
  const weighted = [{ arbitrary: cases[0], weight: cases.length - 1 }, ...cases.slice(1).map((arbitrary) => ({ arbitrary, weight: 1 }))];
  return fc.tuple(fc.oneof(...weighted), fc.constantFrom(...RAW_NUMBERS), fc.constantFrom(...INVALID_UTF8)).map(([c, number, bytes]) => {
    const args = boundWaits(schema, c.args);
    const f = Object.keys(args).find((k) => args[k] === MARKER);
    if (f === undefined) return { ...c, args };
    const raw = c.mutation === "raw_number" ? utf8(number) : c.mutation === "deep" ? DEEP : Uint8Array.from([0x22, 0x61, ...bytes, 0x62, 0x22]); // "a<bytes>b"
    // The SDK client sends JSON text: its stand-in value is a plain string of the same field.
    return { ...c, args: { ...args, [f]: "a\ufffdb" }, raw: { field: f, bytes: raw } };
  });
}

const MARKER_JSON = JSON.stringify(MARKER);

/** The case's arguments with the marker where its raw bytes go (the whole arguments for `not_object`). */
export function markedArgs(c: ToolCase): unknown {
  if (!c.raw) return c.args;
  return c.raw.field === null ? MARKER : { ...c.args, [c.raw.field]: MARKER };
}

/** JSON text holding `markedArgs` somewhere, as bytes, with the raw bytes in place of the marker. */
export function spliceRaw(text: string, c: ToolCase): Uint8Array {
  if (!c.raw) return utf8(text);
  const at = text.indexOf(MARKER_JSON);
  if (at < 0) return utf8(text);
  return Buffer.concat([utf8(text.slice(0, at)), c.raw.bytes, utf8(text.slice(at + MARKER_JSON.length))]);
}

/** The raw field's value for a URL (path or query): invalid UTF-8 as %XX escapes, number literals as they are. */
export function rawUrlValue(c: ToolCase): string | undefined {
  if (!c.raw || c.raw.field === null) return undefined;
  const bytes = c.mutation === "invalid_utf8" ? c.raw.bytes.subarray(1, -1) : c.raw.bytes;
  return percentEncode(bytes);
}
