import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { JSON_MAX_DEPTH } from "@/lib/json/json-depth";
import { parseValueText } from "@/lib/disk/value-text";

const refusal = (text: string) => {
  try {
    parseValueText(text);
  } catch (err) {
    return err instanceof AppError ? { code: err.code, details: err.details } : err;
  }
  return null;
};

describe("a key's value typed on the Disk screen", () => {
  it("is refused by field past the API's nesting depth (5,000 and 150,000 levels overflowed the stack on save)", () => {
    for (const depth of [JSON_MAX_DEPTH + 1, 5_000, 150_000]) {
      expect(refusal(`${"[".repeat(depth)}${"]".repeat(depth)}`)).toEqual({
        code: "validation_error",
        details: [{ field: "valueJson", message: `is nested more than ${JSON_MAX_DEPTH} levels deep` }],
      });
    }
    const deepest = `${"[".repeat(JSON_MAX_DEPTH)}${"]".repeat(JSON_MAX_DEPTH)}`;
    expect(JSON.stringify(parseValueText(deepest))).toBe(deepest);
    // Brackets inside strings are text, not nesting.
    expect(parseValueText(JSON.stringify("[".repeat(5_000)))).toBe("[".repeat(5_000));
  });

  it("is refused by field when it holds a number JSON cannot carry (it was saved as null: found by helper-123)", () => {
    expect(refusal('{"amount": 1e400}')).toMatchObject({
      code: "validation_error",
      details: [{ field: "valueJson", message: expect.stringMatching(/"amount" is too large/) }],
    });
    expect(parseValueText('{"amount": 1.5e308, "s": "1e400"}')).toEqual({ amount: 1.5e308, s: "1e400" });
  });

  it("is refused by field when it is not JSON", () => {
    expect(refusal("{nope")).toMatchObject({ code: "validation_error", details: [{ field: "valueJson" }] });
  });
});
