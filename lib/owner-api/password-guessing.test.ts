import { afterAll, beforeAll, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { getDb } from "@/lib/db/client";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { startOwnerSession } from "@/lib/owners/owner-sessions";
import { ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { OWNER_PASSWORD } from "@/lib/testing/seed";

/** Guessing the owner's password through Settings → Password with someone's session: a failed sign-in each time. */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Password guessing");
});
afterAll(() => c.server.close());

it("holds wrong current passwords to AUTH_FAILURES_PER_MINUTE per owner, the right one included once over", async () => {
  const session = await startOwnerSession(await getDb(), { ownerId: c.seeded.owner.id });
  const cookie = `next-auth.session-token=${await encode({ token: { sid: session.id }, secret: nextAuthSecret() })}`;
  const asSession = { authorization: "", cookie, origin: c.server.url };
  const change = (current: string) => c.call("PUT", "/owner/password", { current_password: current, new_password: "a long new password" }, asSession);
  const statuses: number[] = [];
  for (let i = 0; i < 25; i++) statuses.push((await change(`guess ${i}`)).status);
  expect(statuses).toEqual([...Array(20).fill(400), ...Array(5).fill(429)]);
  const right = await change(OWNER_PASSWORD);
  expect(right.status).toBe(429);
  expect(right.body.error.code).toBe("rate_limited");
  expect(await c.entry("owner.password.change")).toBeUndefined();
});
