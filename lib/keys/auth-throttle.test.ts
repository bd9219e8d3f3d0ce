import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
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

it("behind TRUST_PROXY counts the address the proxy appended, whatever the client wrote before it", async () => {
  const proxyEnv = envSettings("TRUST_PROXY");
  proxyEnv.set({ TRUST_PROXY: "1" });
  try {
    const { secret } = await seedProject();
    const bad = `Bearer brk_live_${"1".repeat(32)}`;
    // A client naming a fresh address on each attempt: the proxy appends its real one (203.0.113.7) after them.
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const headers = { authorization: bad, "x-forwarded-for": `10.9.${i}.1, 198.51.100.${i}, 203.0.113.7` };
      statuses.push((await fetch(`${server.url}/api/v1/whoami`, { headers })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    // Another client of the proxy is not held up by it.
    const other = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}`, "x-forwarded-for": "203.0.113.8" } });
    expect(other.status).toBe(200);
    const same = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}`, "x-forwarded-for": "203.0.113.7" } });
    expect(same.status).toBe(429);
  } finally {
    proxyEnv.restore();
  }
});

it("counts an IPv6 client's failures by its /64, so it cannot guess on from each of its addresses", async () => {
  const proxyEnv = envSettings("TRUST_PROXY");
  proxyEnv.set({ TRUST_PROXY: "1" });
  try {
    const { secret } = await seedProject();
    const bad = `Bearer brk_live_${"2".repeat(32)}`;
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i++) {
      const headers = { authorization: bad, "x-forwarded-for": `2001:db8:7:7:${i.toString(16)}::${i.toString(16)}` };
      statuses.push((await fetch(`${server.url}/api/v1/whoami`, { headers })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    // Another /64 is another client.
    const other = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}`, "x-forwarded-for": "2001:db8:7:8::1" } });
    expect(other.status).toBe(200);
  } finally {
    proxyEnv.restore();
  }
});
