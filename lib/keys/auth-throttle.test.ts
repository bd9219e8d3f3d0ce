import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

it("throttles repeated bad keys from one address with 429 and Retry-After, even for a then-valid key", async () => {
  const { secret } = await seedProject();
  const bad = { authorization: `Bearer brk_live_${"0".repeat(32)}` };
  let last = 0;
  for (let i = 0; i < 21; i++) last = (await fetch(`${server.url}/api/v1/whoami`, { headers: bad })).status;
  expect(last).toBe(429);
  const res = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } });
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await res.json()).error.code).toBe("rate_limited");
});
