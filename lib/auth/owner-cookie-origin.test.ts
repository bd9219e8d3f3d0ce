import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { getDb } from "@/lib/db/client";
import { ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { startOwnerSession } from "@/lib/owners/owner-sessions";

/**
 * The session cookie is taken on API routes only from our own origin, a check skipped for HTTP Basic. The check and
 * the authentication must agree on what Basic is: the check took `Basic<TAB>…` for Basic while the authentication
 * (a space only) fell through to the cookie, so another origin's request with the owner's cookie was served.
 */
let c: Awaited<ReturnType<typeof ownerClient>>;
let cookie: string;
beforeAll(async () => {
  c = await ownerClient("Cookie origin");
  const session = await startOwnerSession(await getDb(), { ownerId: c.seeded.owner.id, userAgent: "Chromium", ip: "127.0.0.1" });
  cookie = `next-auth.session-token=${await encode({ token: { sid: session.id }, secret: nextAuthSecret() })}`;
});
afterAll(() => c.server.close());

const secret = async () => (await c.call("POST", "/owner/callback-secret/reveal")).body;

describe("the owner's cookie from another origin", () => {
  it("is refused whatever Authorization says: a Basic that is not the owner's is a 401, never the cookie's owner", async () => {
    const before = await secret();
    for (const authorization of [undefined, "Basic\tbm90OmJhc2lj", "BASIC   bm90OmJhc2lj"]) {
      const read = await fetch(`${c.server.url}/api/v1/owner/callback-secret/reveal`, {
        method: "POST",
        // Another local page: an origin the API lets keys come from (loopback), never the owner's cookie.
        headers: { cookie, origin: "http://localhost:1", "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body: "{}",
      });
      expect(read.status, authorization).toBe(authorization ? 401 : 403);
      const rotate = await fetch(`${c.server.url}/api/v1/owner/callback-secret/rotate`, {
        method: "POST",
        headers: { cookie, origin: "http://127.0.0.1:1", "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body: "{}",
      });
      expect(rotate.status, authorization).toBe(authorization ? 401 : 403);
    }
    expect(await secret()).toEqual(before);
  });

  it("still lets the owner's own Basic through with any white space after the word", async () => {
    const { OWNER_EMAIL, OWNER_PASSWORD } = await import("@/lib/testing/seed");
    const basic = Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64");
    const res = await fetch(`${c.server.url}/api/v1/owner/telegram`, {
      headers: { authorization: `Basic\t${basic}`, "x-brynth-project": c.seeded.project.id },
    });
    expect(res.status).toBe(200);
  });
});
