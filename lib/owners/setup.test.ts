import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { createFirstOwner } from "@/lib/owners/create-owner";
import { consumeSetupToken, issueSetupToken } from "@/lib/owners/setup-token";
import { checkOwnerPassword } from "@/lib/owners/find-owner";

describe("first-run setup", () => {
  it("consumes a setup token once, creates one owner, and refuses any second owner", async () => {
    const db = await getDb();
    const token = await issueSetupToken(db);
    expect(await consumeSetupToken(db, "wrong-token")).toBe(false);
    const made = await db.transaction(async (tx) => {
      expect(await consumeSetupToken(tx, token)).toBe(true);
      return createFirstOwner(tx, { email: "First@Example.com", password: "a long password", projectName: "Main" });
    });
    expect(made.owner.email).toBe("first@example.com");
    expect(made.owner.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await consumeSetupToken(db, token)).toBe(false);

    const second = await issueSetupToken(db);
    await expect(
      db.transaction(async (tx) => {
        await consumeSetupToken(tx, second);
        return createFirstOwner(tx, { email: "attacker@example.com", password: "another password", projectName: "Mine" });
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
    // The refused attempt rolled back: its token is still unused, and the attacker has no account.
    expect(await checkOwnerPassword(db, "attacker@example.com", "another password")).toBeNull();
    expect(await checkOwnerPassword(db, "first@example.com", "a long password")).not.toBeNull();
  });
});
