import fc from "fast-check";

/**
 * Values no well-behaved client sends, for any field of any tool: they must be refused by name (or stored as
 * given), never crash a handler, a driver or the database.
 */

/**
 * Nested arrays `depth` deep as JSON text. 5,000 is far past the JSON boundary's limit and deeper than
 * JSON.stringify itself goes on a test's stack (the SDK client overflows sending it), so deep values travel as text.
 */
export const nestedJson = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

/** Nested arrays and objects just past the JSON boundary's limit (100), as a value any client can still send. */
export function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Characters that break naive code: NUL and controls, lone surrogates, bidi and invisible format characters. */
const ODD_CHARS = [
  "\u0000",
  "\u0001",
  "\u001b",
  "\u007f",
  "\r\n",
  "\t",
  "\ud800", // lone high surrogate: not encodable as UTF-8
  "\udfff", // lone low surrogate
  "\u202e", // RIGHT-TO-LEFT OVERRIDE
  "\u2066", // LEFT-TO-RIGHT ISOLATE
  "\u200f", // RIGHT-TO-LEFT MARK
  "\u200b", // ZERO WIDTH SPACE
  "\ufeff", // BOM
  "\ufffd",
  "\u0301", // a combining mark with nothing to combine with
  "😀",
  "é",
  "𝔘",
  "%",
  "%zz",
  "%00",
  "%2e%2e",
  "..",
  "/",
  "\\",
  "'",
  '"',
  "{{}}",
  "<script>",
  " ",
];

const oddChar = fc.constantFrom(...ODD_CHARS);

/** Short strings mixing odd characters with any code point (lone surrogates included: `binary` units). */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_CHARS, "", " ", "NaN", "Infinity", "-Infinity", "1e309", "0x10", "-0", "9007199254740993", "null", "true", "[]", "{}"),
  fc.array(fc.oneof(oddChar, fc.string({ unit: "binary", maxLength: 6 })), { minLength: 1, maxLength: 8 }).map((parts) => parts.join("")),
);

/** 1k to 100k characters of one repeated odd or plain unit: over every documented limit, and heavy for the transports. */
export const longString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("a", "é", "😀", "\u202e", "\u0000", "\ud800", "%"), fc.constantFrom(1_000, 4_097, 65_536, 100_000))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

/** Numbers at the edges of doubles and of safe integers; JSON has no -0 or NaN, so those arrive as 0 and null. */
export const oddNumber: fc.Arbitrary<number> = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -0,
  2 ** 53 + 1,
  -(2 ** 53) - 1,
  2 ** 63,
  2 ** 31,
  -1,
  0.5,
  1e-7,
  Number.NaN,
  Number.POSITIVE_INFINITY,
);

/** A value of any JSON type but the expected one, more or less: the point is that it is often the wrong one. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, "", [], {}, [null], { "": null }),
  oddNumber,
  fc.jsonValue({ maxDepth: 3 }),
);

/** Any adversarial value for one field. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: wrongType, weight: 3 },
  { arbitrary: oddString, weight: 3 },
  { arbitrary: oddNumber, weight: 2 },
  { arbitrary: longString, weight: 1 },
  { arbitrary: fc.constantFrom(nested(99), nested(101)), weight: 1 },
);

/** Object keys a schema never declared, odd ones included (`__proto__`, empty, huge). */
export const unknownKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("bogus", "__proto__", "constructor", "", "\u0000", "\ud800", "a".repeat(10_000)),
  fc.string({ minLength: 1, maxLength: 12 }),
);
