import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { OWNER_EMAIL, OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

/** Password guessing against owner REST's HTTP Basic, over real HTTP: each wrong guess costs the server argon2id. */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
  await seedProject({ name: "Guessing" });
});
afterAll(() => server.close());

const basic = (password: string) => `Basic ${Buffer.from(`${OWNER_EMAIL}:${password}`).toString("base64")}`;
const ownerCall = (password: string) => fetch(`${server.url}/api/v1/owner/oauth/grants`, { headers: { authorization: basic(password) } }).then((r) => r.status);

it("checks the owner's own credentials sent in a burst once, refusing none of them", async () => {
  // First: the guesses below hold this address to its limit for a minute.
  const statuses = await Promise.all(Array.from({ length: 30 }, () => ownerCall(OWNER_PASSWORD)));
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
});

it("lets no more guesses be checked than AUTH_FAILURES_PER_MINUTE, even when they are all sent at once", async () => {
  // 60 wrong passwords in flight together from one address: the limit (20 a minute) held only for guesses sent
  // after the first failures were counted, so all 60 were checked (60 argon2id runs, none refused).
  const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => ownerCall(`wrong guess ${i}`)));
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
});
