import { describe, expect, it } from "vitest";
import { stableJson } from "@/lib/json/stable-json";

describe("stableJson", () => {
  it("sorts keys at every level, so key order does not change the text", () => {
    expect(stableJson({ b: 1, a: { d: [{ y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[{"x":1,"y":2}]},"b":1}');
    expect(stableJson({ b: 1, a: 2 })).toBe(stableJson({ a: 2, b: 1 }));
  });

  it("keeps array order, drops undefined members and writes undefined itself as null", () => {
    expect(stableJson([3, 1, 2])).toBe("[3,1,2]");
    expect(stableJson({ a: undefined, b: "x" })).toBe('{"b":"x"}');
    expect(stableJson(undefined)).toBe("null");
  });

  it("escapes keys and strings as JSON does", () => {
    const value = { 'quo"te': "line\nbreak", é: "€" };
    expect(JSON.parse(stableJson(value))).toEqual(value);
  });
});
