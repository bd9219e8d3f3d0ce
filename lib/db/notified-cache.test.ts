import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { notifiedCache } from "@/lib/db/notified-cache";
import { publish } from "@/lib/db/change-channel";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

/** Caches `value` under `key` once the cache's LISTEN is in place (nothing is kept before). */
async function warm(cache: ReturnType<typeof notifiedCache<number>>, key: string, value: number) {
  await expect
    .poll(() => {
      cache.set(cache.epoch(), key, value);
      return cache.get(key);
    })
    .toBe(value);
}

describe("notified cache", () => {
  it("forgets on a NOTIFY from anywhere, and keeps nothing read before an invalidation", async () => {
    const cache = notifiedCache<number>("test_cache_a", { maxAgeMs: 60_000 });
    await warm(cache, "k", 1);
    publish("test_cache_a", null); // another instance's change
    await expect.poll(() => cache.get("k")).toBeUndefined();

    await warm(cache, "k", 1);
    const before = cache.epoch(); // a lookup starts…
    await (await getDb()).transaction(async (tx) => cache.invalidate(tx)); // …a change commits meanwhile…
    cache.set(before, "k", 2); // …and what the lookup read is not kept
    expect(cache.get("k")).toBeUndefined();
  });

  it("expires entries after maxAgeMs", async () => {
    const cache = notifiedCache<number>("test_cache_b", { maxAgeMs: 50 });
    await warm(cache, "k", 1);
    await new Promise((r) => setTimeout(r, 80));
    expect(cache.get("k")).toBeUndefined();
  });

  // Notifications sent while the LISTEN connection is down are lost: a re-established LISTEN empties the cache.
  it.runIf(onPostgres)("forgets everything when its LISTEN connection is lost and re-established", async () => {
    const cache = notifiedCache<number>("test_cache_c", { maxAgeMs: 60_000 });
    await warm(cache, "k", 1);
    const db = await getDb();
    await db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`);
    await expect.poll(() => cache.get("k"), { timeout: 10_000 }).toBeUndefined();
  });
});
