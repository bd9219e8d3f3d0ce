import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { getDb } from "@/lib/db/client";
import { ownerSessions } from "@/lib/db/schema/owners";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { startOwnerSession } from "@/lib/owners/owner-sessions";
import { namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { OWNER_EMAIL, OWNER_PASSWORD } from "@/lib/testing/seed";

/** Changing the owner's password over owner REST: the dashboard's rules, its op, and every other session ended. */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Password REST");
});
afterAll(() => c.server.close());

const basic = (password: string) => `Basic ${Buffer.from(`${OWNER_EMAIL}:${password}`).toString("base64")}`;
const withBasic = (password: string) =>
  fetch(`${c.server.url}/api/v1/owner/sessions`, { headers: { authorization: basic(password), "x-brynth-project": c.seeded.project.id } }).then(
    (r) => r.status,
  );
const liveSessions = async () =>
  (
    await (
      await getDb()
    )
      .select({ id: ownerSessions.id })
      .from(ownerSessions)
      .where(and(eq(ownerSessions.ownerId, c.seeded.owner.id), isNull(ownerSessions.revokedAt)))
  ).map((s) => s.id);
const session = async () => startOwnerSession(await getDb(), { ownerId: c.seeded.owner.id, userAgent: "Chromium", ip: "127.0.0.1" });

describe("owner REST: changing the password", () => {
  it("names the field of a wrong current password and of a too short new one, and changes nothing", async () => {
    const before = await session();
    const cases: [unknown, string][] = [
      [{ current_password: "wrong password", new_password: "a long new password" }, "current_password"],
      [{ current_password: OWNER_PASSWORD, new_password: "short" }, "new_password"],
      [{ current_password: "", new_password: "a long new password" }, "current_password"],
      [{ current_password: OWNER_PASSWORD }, "new_password"],
      [{ current_password: OWNER_PASSWORD, new_password: "x".repeat(1001) }, "new_password"],
    ];
    for (const [body, field] of cases) {
      const res = await c.call("PUT", "/owner/password", body);
      expect(res.status, field).toBe(400);
      expect(namesFields(res.body, [field]), JSON.stringify(res.body)).toBe(true);
    }
    expect(await c.entry("owner.password.change")).toBeUndefined();
    expect(await liveSessions()).toContain(before.id);
    expect(await withBasic(OWNER_PASSWORD)).toBe(200);
  });

  it("over HTTP Basic: ends every dashboard session, the old password stops at once and the new one works", async () => {
    const a = await session();
    const b = await session();
    expect(await withBasic(OWNER_PASSWORD)).toBe(200); // verified, and so remembered for a moment
    const res = await c.call("PUT", "/owner/password", { current_password: OWNER_PASSWORD, new_password: "a brand new passphrase" });
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(true);
    expect(res.body.ended_sessions).toBeGreaterThanOrEqual(2);
    expect(await liveSessions()).not.toContain(a.id);
    expect(await liveSessions()).not.toContain(b.id);
    expect(await withBasic(OWNER_PASSWORD)).toBe(401);
    expect(await withBasic("a brand new passphrase")).toBe(200);
    const entry = await c.entry("owner.password.change");
    expect(entry).toMatchObject({ subject: c.seeded.owner.id, actorType: "owner", via: "rest" });

    // Back, over the session cookie this time: that session stays, the others end.
    const mine = await session();
    const other = await session();
    const cookie = `next-auth.session-token=${await encode({ token: { sid: mine.id }, secret: nextAuthSecret() })}`;
    const back = await fetch(`${c.server.url}/api/v1/owner/password`, {
      method: "PUT",
      headers: { cookie, origin: c.server.url, "content-type": "application/json", "x-brynth-project": c.seeded.project.id },
      body: JSON.stringify({ current_password: "a brand new passphrase", new_password: OWNER_PASSWORD }),
    });
    expect(back.status).toBe(200);
    expect((await back.json()).ended_sessions).toBe(1);
    const live = await liveSessions();
    expect(live).toContain(mine.id);
    expect(live).not.toContain(other.id);
    expect(await withBasic("a brand new passphrase")).toBe(401);
    expect(await withBasic(OWNER_PASSWORD)).toBe(200);
  });
});
