import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { verifiedCredentialCache } from "@/lib/auth/owner-basic-cache";
import { changePassword } from "@/lib/owners/change-password";
import { OWNER_EMAIL, OWNER_PASSWORD, seedOwner } from "@/lib/testing/seed";

/** Owner Basic credentials verified once are taken without argon2id for a while; a changed password misses at once. */
describe("verified owner credentials", () => {
  it("keeps successes only, for ttlMs, on the clock it is given", async () => {
    const owner = await seedOwner();
    const db = await getDb();
    let clock = 1_000_000;
    const cache = verifiedCredentialCache({ ttlMs: 60_000, max: 10, now: () => clock });

    expect((await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD))?.id).toBe(owner.id);
    expect(cache.stats).toEqual({ hits: 0, misses: 1 });
    expect((await cache.check(db, ` ${OWNER_EMAIL.toUpperCase()} `, OWNER_PASSWORD))?.id).toBe(owner.id);
    expect(cache.stats).toEqual({ hits: 1, misses: 1 });

    // A wrong password, an unknown email, or the right password's prefix never hit and never pass.
    for (const [email, password] of [
      [OWNER_EMAIL, "wrong"],
      [OWNER_EMAIL, OWNER_PASSWORD.slice(0, -1)],
      ["nobody@example.com", OWNER_PASSWORD],
    ]) {
      expect(await cache.check(db, email, password)).toBeNull();
    }
    expect(cache.stats).toEqual({ hits: 1, misses: 4 });

    clock += 60_001;
    expect((await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD))?.id).toBe(owner.id);
    expect(cache.stats).toEqual({ hits: 1, misses: 5 });
    expect((await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD))?.id).toBe(owner.id);
    expect(cache.stats).toEqual({ hits: 2, misses: 5 });

    cache.setTtl(0);
    await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD);
    await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD);
    expect(cache.stats).toEqual({ hits: 2, misses: 7 });
  });

  it("misses on every instance as soon as the password changes, with no message between them", async () => {
    const owner = await seedOwner();
    const db = await getDb();
    // Two instances: two processes' caches, each with its own key.
    const a = verifiedCredentialCache({ ttlMs: 60_000, max: 10 });
    const b = verifiedCredentialCache({ ttlMs: 60_000, max: 10 });
    for (const cache of [a, b]) {
      await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD);
      expect((await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD))?.id).toBe(owner.id);
      expect(cache.stats.hits).toBe(1);
    }
    const next = "another long passphrase";
    await db.transaction((tx) => changePassword(tx, { ownerId: owner.id, sessionId: null, current: OWNER_PASSWORD, next }));
    try {
      for (const cache of [a, b]) {
        expect(await cache.check(db, OWNER_EMAIL, OWNER_PASSWORD)).toBeNull();
        expect(cache.stats.hits).toBe(1);
        expect((await cache.check(db, OWNER_EMAIL, next))?.id).toBe(owner.id);
      }
    } finally {
      await db.transaction((tx) => changePassword(tx, { ownerId: owner.id, sessionId: null, current: next, next: OWNER_PASSWORD }));
    }
    // Setting the old password back makes a new hash: the entry from before the change stays unusable.
    const hitsBefore = a.stats.hits;
    expect((await a.check(db, OWNER_EMAIL, OWNER_PASSWORD))?.id).toBe(owner.id);
    expect(a.stats.hits).toBe(hitsBefore);
  });
});
