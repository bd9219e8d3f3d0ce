/**
 * JSON.parse, refusing a number past a double's range: it parses as Infinity, which JSON has no word for, so a value
 * holding `1e400` was stored and read back as null (found by helper-115). The reviver, which costs on every value,
 * runs only on a text holding a long exponent or 309 digits in a row: nothing else can overflow.
 */
export function parseFiniteJson(text: string): unknown {
  return MAYBE_HUGE_NUMBER.test(text) ? JSON.parse(text, refuseNonFinite) : JSON.parse(text);
}

/** A number of the text would have been Infinity; `key` is the name (or index) it was given. */
export class NonFiniteNumberError extends Error {
  constructor(readonly key: string) {
    super(`the number at "${key}" is too large for JSON's numbers (it would be stored as null)`);
  }
}

const MAYBE_HUGE_NUMBER = /[eE][+-]?\d{3}|\d{309}/;

function refuseNonFinite(key: string, value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) throw new NonFiniteNumberError(key);
  return value;
}
