import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { seedKey, seedProject } from "@/lib/testing/seed";

/**
 * KEY_MAX_PENDING_REQUESTS refuses with rate_limited, a 429, which had no Retry-After while every other 429 of the
 * API has one: a client retrying on 429 got no pacing (and each retry cost a call). It says when to look again.
 */
const cap = envSettings("KEY_MAX_PENDING_REQUESTS");
let server: Awaited<ReturnType<typeof startApiServer>>;
let secret: string;

beforeAll(async () => {
  cap.set({ KEY_MAX_PENDING_REQUESTS: "1" });
  server = await startApiServer();
  const seeded = await seedProject();
  secret = (await seedKey(seeded.project.id, ["approvals"], "pending probe")).secret;
});
afterAll(async () => {
  await server.close();
  cap.restore();
});

const ask = (i: number) =>
  fetch(`${server.url}/api/v1/questions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ question: `Which plan ${i}?`, wait_seconds: 0 }),
  });

it("a 429 for too many pending requests says when to retry (Retry-After)", async () => {
  const first = await ask(1);
  expect(first.status).toBe(200);
  const refused = await ask(2);
  expect(refused.status).toBe(429);
  const body = await refused.json();
  expect(body.error.code).toBe("rate_limited");
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
});
