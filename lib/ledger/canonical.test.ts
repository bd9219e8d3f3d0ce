import { createHash, randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { digest, stableStringify } from "@/lib/ledger/canonical";

const KEYS = ["a", "b", "Z", "é", "😀", "", "__proto__", "constructor", "0", "1", "10", "9", "01", "-1", "4294967295", "x y", "\u0000"];

/** A random JSON value as `JSON.parse` would build it (so "__proto__" is an own key). */
function randomJson(depth: number): unknown {
  const pick = randomInt(depth > 0 ? 8 : 5);
  if (pick === 0) return null;
  if (pick === 1) return randomInt(2) === 1;
  if (pick === 2) return randomInt(-1000, 1000) / 7;
  if (pick === 3) return KEYS[randomInt(KEYS.length)];
  if (pick === 4) return randomInt(100);
  if (pick === 5) return Array.from({ length: randomInt(4) }, () => randomJson(depth - 1));
  const entries = Array.from({ length: randomInt(6) }, () => `${JSON.stringify(KEYS[randomInt(KEYS.length)])}:${JSON.stringify(randomJson(depth - 1))}`);
  return JSON.parse(`{${entries.join(",")}}`);
}

describe("stableStringify", () => {
  it("sorts keys by code unit at every depth and is the same JSON value", () => {
    const value = JSON.parse('{"b":1,"a":{"d":[{"z":1,"y":2}],"c":null},"é":"x","Z":true}');
    const text = stableStringify(value);
    expect(text).toBe('{"Z":true,"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1,"é":"x"}');
    expect(JSON.parse(text)).toEqual(value);
  });

  it("writes index-like keys in string order, like any other key", () => {
    expect(stableStringify(JSON.parse('{"b":1,"10":2,"9":3,"a":{"1":4,"0":5}}'))).toBe('{"10":2,"9":3,"a":{"0":5,"1":4},"b":1}');
  });

  it("keeps __proto__ as an ordinary key and never touches the prototype of the input", () => {
    const value = JSON.parse('{"z":1,"__proto__":{"polluted":true}}');
    expect(stableStringify(value)).toBe('{"__proto__":{"polluted":true},"z":1}');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("leaves out undefined members and writes top-level undefined as null", () => {
    expect(stableStringify({ b: undefined, a: 1 })).toBe('{"a":1}');
    expect(stableStringify([undefined, 1])).toBe("[null,1]");
    expect(stableStringify(undefined)).toBe("null");
  });

  it("is the same JSON value with the same key order at every depth, for random values", () => {
    for (let i = 0; i < 500; i++) {
      const value = randomJson(4);
      const text = stableStringify(value);
      expect(JSON.parse(text)).toEqual(value);
      expect(text).toBe(reference(value));
    }
  });
});

describe("digest", () => {
  const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

  it("is the SHA-256 of the canonical text, and null for nothing", () => {
    const value = JSON.parse('{"b":[1,{"y":null,"x":"é"}],"a":"\\u0000\\""}');
    expect(digest(value)).toBe(sha(reference(value)));
    expect(digest(undefined)).toBeNull();
  });

  it("hashes long strings in slices to the same digest, escapes and surrogate pairs across slice edges included", () => {
    const emoji = "\u{1F600}"; // two UTF-16 code units
    for (let offset = 0; offset < 6; offset++) {
      // Each offset puts a different point of the 6-unit pattern on the slice edges: a pair, a lone high surrogate…
      const s = "x".repeat(offset) + `${emoji}"\n\\\ud800`.repeat(40_000);
      const value = { key: "k", value: { text: s, list: [s.slice(0, 20_000)] } };
      expect(digest(value)).toBe(sha(reference(value)));
      expect(stableStringify(value)).toBe(reference(value));
    }
  });
});

/** The obvious definition, to compare with. */
function reference(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(reference).join(",")}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`)
    .join(",")}}`;
}
