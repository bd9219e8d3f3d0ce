import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { owners, setupTokens } from "@/lib/db/schema/owners";
import { sha256Hex } from "@/lib/crypto/hash";
import { AppError } from "@/lib/errors";
import { isSetupTokenUsable } from "@/lib/owners/check-setup-token";
import { completeSetup } from "@/lib/owners/complete-setup";
import { checkOwnerPassword } from "@/lib/owners/find-owner";
import { issueSetupToken } from "@/lib/owners/setup-token";

const form = (token: string, email = "first@example.com", password = "first password 1") => ({
  token,
  email,
  password,
  projectName: "Acme",
});

async function codeOf(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

let winner = "";

// One database for the whole file: the order of these tests is the life of an instance.
describe("completeSetup", () => {
  it("refuses bad input without consuming the token", async () => {
    const db = await getDb();
    const token = await issueSetupToken(db);
    expect(await codeOf(completeSetup(db, { ...form(token), password: "short" }))).toBe("validation_error");
    expect(await codeOf(completeSetup(db, { ...form(token), email: "not-an-email" }))).toBe("validation_error");
    expect(await isSetupTokenUsable(db, token)).toBe(true);
    expect(await db.select().from(owners)).toHaveLength(0);
  });

  it("refuses unknown and expired tokens and creates nothing", async () => {
    const db = await getDb();
    expect(await codeOf(completeSetup(db, form("not-a-real-token")))).toBe("forbidden");
    const expired = "expiredtokenexpiredtokenexpired1";
    await db.insert(setupTokens).values({ tokenHash: sha256Hex(expired), expiresAt: new Date(Date.now() - 1000) });
    expect(await isSetupTokenUsable(db, expired)).toBe(false);
    expect(await codeOf(completeSetup(db, form(expired)))).toBe("forbidden");
    expect(await db.select().from(owners)).toHaveLength(0);
  });

  it("lets exactly one of two concurrent setups win", async () => {
    const db = await getDb();
    const [a, b] = [await issueSetupToken(db), await issueSetupToken(db)];
    const results = await Promise.allSettled([completeSetup(db, form(a, "a@example.com")), completeSetup(db, form(b, "b@example.com"))]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    winner = results[0].status === "fulfilled" ? a : b;
    expect(await db.select().from(owners)).toHaveLength(1);
  });

  it("cannot be replayed, with the used link or a fresh one, to take over the instance", async () => {
    const db = await getDb();
    const [owner] = await db.select().from(owners);
    const fresh = await issueSetupToken(db);
    expect(await codeOf(completeSetup(db, form(fresh, "attacker@example.com", "attacker password")))).toBe("forbidden");
    const all = await db.select().from(owners);
    expect(all.map((o) => o.email)).toEqual([owner.email]);
    expect(await checkOwnerPassword(db, owner.email, "first password 1")).not.toBeNull();
    expect(await checkOwnerPassword(db, owner.email, "attacker password")).toBeNull();
  });

  it("refuses the used link itself, and the page sees it as unusable", async () => {
    const db = await getDb();
    expect(await isSetupTokenUsable(db, winner)).toBe(false);
    expect(await codeOf(completeSetup(db, form(winner, "again@example.com", "again password")))).toBe("forbidden");
    expect(await db.select().from(owners)).toHaveLength(1);
  });
});
