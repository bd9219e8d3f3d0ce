import { expect, it } from "vitest";
import { newId, randomBase62 } from "@/lib/ids";

it("draws base62 ids of the asked length, all distinct, every character about equally often", () => {
  const ids = Array.from({ length: 20_000 }, () => newId("evt"));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids.slice(0, 100)) expect(id).toMatch(/^evt_[0-9a-zA-Z]{22}$/);
  const counts = new Map<string, number>();
  for (const c of ids.map((id) => id.slice(4)).join("")) counts.set(c, (counts.get(c) ?? 0) + 1);
  expect(counts.size).toBe(62);
  const expected = (20_000 * 22) / 62;
  for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.1);
  expect(randomBase62(5000)).toMatch(/^[0-9a-zA-Z]{5000}$/); // needs more bytes than one 4 KB refill
});
