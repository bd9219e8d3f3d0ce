import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { checkOwnerPassword } from "@/lib/owners/find-owner";
import { startApiServer } from "@/lib/testing/api-server";
import { OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

/** An email with a NUL reached the owner lookup, which PostgreSQL refused: a 500 instead of a wrong credential. */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
  await seedProject({ name: "Unstorable email" });
});
afterAll(() => server.close());

it("answers owner REST's Basic credentials with a NUL in the email with 401", async () => {
  const authorization = `Basic ${Buffer.from(`owner\u0000@example.com:${OWNER_PASSWORD}`).toString("base64")}`;
  const res = await fetch(`${server.url}/api/v1/owner/oauth/grants`, { headers: { authorization } });
  expect(res.status).toBe(401);
  expect((await res.json()).error.code).toBe("unauthorized");
});

it("finds no owner for such an email at sign-in", async () => {
  await expect(checkOwnerPassword(await getDb(), "owner\u0000@example.com", OWNER_PASSWORD)).resolves.toBeNull();
});
