import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { PageKey } from "@/lib/db/keyset";
import { decodePageToken, encodePageToken, type PageBinding, readPageToken } from "@/lib/tools/page-token";

const key: PageKey = { at: "2026-12-01 18:45:36.123456+00", id: "thr_0123456789abcdefghijkl" };
const binding: PageBinding = {
  tool: "list_threads",
  project: "prj_0123456789abcdefghijkl",
  filter: { inboxId: "mbx_0123456789abcdefghijkl", labels: ["unread"], includeSpam: false, before: "2026-12-01T00:00:00Z" },
  ascending: false,
};
const token = encodePageToken(key, binding);

/** The validation_error decodePageToken throws, checked to name pageToken; its message is returned. */
function refusal(t: string, b: PageBinding = binding): string {
  let error: unknown;
  try {
    decodePageToken(t, b);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(AppError);
  const e = error as AppError;
  expect(e.code).toBe("validation_error");
  expect(e.details).toEqual([{ field: "pageToken", message: expect.any(String) }]);
  expect(e.message).toMatch(/^pageToken: /);
  return e.message;
}

describe("page tokens", () => {
  it("give back the key they were made from, for the same tool, filter and order", () => {
    expect(decodePageToken(token, binding)).toEqual(key);
    expect(decodePageToken(encodePageToken(key, { ...binding, ascending: true }), { ...binding, ascending: true })).toEqual(key);
  });

  it("are URL-safe and short", () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(token.length).toBeLessThan(160);
  });

  it("do not depend on the order of the filter's keys, and do not carry the filter itself", () => {
    const reordered = { before: "2026-12-01T00:00:00Z", includeSpam: false, labels: ["unread"], inboxId: "mbx_0123456789abcdefghijkl" };
    expect(decodePageToken(token, { ...binding, filter: reordered })).toEqual(key);
    expect(Buffer.from(token.split(".")[0], "base64url").toString()).not.toContain("mbx_");
  });

  it("are refused when altered: payload, signature, or a payload re-signed by nobody", () => {
    const [body, mac] = token.split(".");
    const forged = Buffer.from(JSON.stringify(["2000-01-01 00:00:00+00", key.id, 0, JSON.parse(Buffer.from(body, "base64url").toString())[3]])).toString(
      "base64url",
    );
    for (const t of [
      `${forged}.${mac}`,
      `${body.slice(0, -1)}${body.endsWith("A") ? "B" : "A"}.${mac}`,
      `${body}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      `${body}.`,
      body,
      `${token}.${mac}`,
    ]) {
      expect(refusal(t)).toContain("not a next_page_token this API returned");
    }
  });

  it("are refused when they are garbage, empty or huge", () => {
    for (const t of ["garbage", "", ".", "..", "a.b", "%%%.!!!", "x".repeat(10_000), `${"a".repeat(600)}.${token.split(".")[1]}`]) {
      expect(refusal(t)).toContain("not a next_page_token this API returned");
    }
  });

  it("are refused for another filter, another inbox, another tool or another project", () => {
    const others: PageBinding[] = [
      { ...binding, filter: { ...(binding.filter as object), labels: ["starred"] } },
      { ...binding, filter: { ...(binding.filter as object), inboxId: "mbx_other0123456789abcdef" } },
      { ...binding, filter: { ...(binding.filter as object), includeSpam: undefined } },
      { ...binding, tool: "list_messages" },
      { ...binding, project: "prj_other0123456789abcdef" },
    ];
    for (const other of others) expect(refusal(token, other)).toContain("returned for other arguments");
  });

  it("are refused for the other order", () => {
    expect(refusal(token, { ...binding, ascending: true })).toContain("returned for ascending: false");
  });

  it("are refused under another APP_SECRET (another installation)", () => {
    const g = globalThis as { __brynthSecret?: Buffer };
    const mine = g.__brynthSecret;
    g.__brynthSecret = Buffer.from("another-secret-another-secret-another-00");
    try {
      expect(refusal(token)).toContain("not a next_page_token this API returned");
    } finally {
      g.__brynthSecret = mine;
    }
    expect(decodePageToken(token, binding)).toEqual(key);
  });

  it("round-trip any key and filter, and refuse every one-character change", () => {
    const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
    fc.assert(
      fc.property(
        fc.record({ at: fc.string({ maxLength: 40 }), id: fc.string({ maxLength: 40 }) }),
        fc.record({
          tool: fc.string({ minLength: 1, maxLength: 20 }),
          project: fc.string({ maxLength: 30 }),
          filter: fc.jsonValue({ maxDepth: 2 }),
          ascending: fc.boolean(),
        }),
        fc.nat(),
        fc.constantFrom(...b64),
        (k, b, at, c) => {
          const t = encodePageToken(k, b);
          expect(readPageToken(t, b)).toEqual({ key: k });
          const i = at % t.length;
          fc.pre(t[i] !== c);
          expect("problem" in readPageToken(`${t.slice(0, i)}${c}${t.slice(i + 1)}`, b)).toBe(true);
        },
      ),
      { seed: 16, numRuns: 300 },
    );
  });
});
