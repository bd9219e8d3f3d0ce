import { describe, expect, it } from "vitest";
import { coalesce } from "@/lib/db/coalesce";

let n = 0;
/** A coalescer over a fake statement that records each batch it is given. */
function recorder(max: number, fail?: (items: number[]) => boolean) {
  const batches: number[][] = [];
  const call = coalesce(`test ${n++}`, max, async (_db, items: number[]) => {
    batches.push(items);
    await new Promise((r) => setTimeout(r, 5));
    if (fail?.(items)) throw new Error(`batch ${items.join(",")} failed`);
    return items.map((i) => i * 10);
  });
  return { call, batches };
}

describe("coalesce", () => {
  it("answers a lone call with one statement of one item", async () => {
    const { call, batches } = recorder(10);
    expect(await call(7)).toBe(70);
    expect(batches).toEqual([[7]]);
  });

  it("sends one statement at once and everything that arrives meanwhile in the next, each caller getting its own answer", async () => {
    const { call, batches } = recorder(100);
    const first = call(1);
    await new Promise((r) => setTimeout(r, 1)); // the first statement is in flight
    const rest = Array.from({ length: 30 }, (_, i) => call(i + 2));
    expect(await Promise.all([first, ...rest])).toEqual(Array.from({ length: 31 }, (_, i) => (i + 1) * 10));
    expect(batches.length).toBeLessThanOrEqual(3);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
  });

  it("keeps batches within max items", async () => {
    const { call, batches } = recorder(4);
    await Promise.all(Array.from({ length: 10 }, (_, i) => call(i)));
    expect(batches.map((b) => b.length)).toEqual([4, 4, 2]);
    expect(batches.flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("fails exactly the callers of a failed statement; later calls go through", async () => {
    const { call } = recorder(3, (items) => items.includes(4));
    const results = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => call(i)));
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "rejected",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect((results[4] as PromiseRejectedResult).reason.message).toBe("batch 3,4,5 failed");
    expect(await call(11)).toBe(110);
  });
});
