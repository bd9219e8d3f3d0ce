import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { resetEnvCache } from "@/lib/env";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { OWNER_EMAIL, OWNER_PASSWORD, seedKey, seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let projectId: string;
const original = process.env.KEY_CALLS_PER_MINUTE;

const setLimit = (perMinute: number) => {
  process.env.KEY_CALLS_PER_MINUTE = String(perMinute);
  resetEnvCache();
};
/** A key of its own per test: buckets are per key, and no test may inherit another's spent tokens. */
const freshKey = async () => (await seedKey(projectId, ["ledger:read"], "rate test")).secret;
const whoami = (secret: string) => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ledgerCount = async () => (await (await getDb()).select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.projectId, projectId)))[0].n;

beforeAll(async () => {
  server = await startApiServer();
  projectId = (await seedProject()).project.id;
});
afterEach(() => {
  if (original === undefined) delete process.env.KEY_CALLS_PER_MINUTE;
  else process.env.KEY_CALLS_PER_MINUTE = original;
  resetEnvCache();
});
afterAll(() => server.close());

describe("calls per key per minute", () => {
  it("answers REST over the limit with 429, Retry-After and the error body, and writes nothing for the refused call", async () => {
    setLimit(3);
    const secret = await freshKey();
    for (let i = 0; i < 3; i++) expect((await whoami(secret)).status).toBe(200);
    const before = await ledgerCount();
    const res = await whoami(secret);
    expect(res.status).toBe(429);
    // One token per 20 s at 3 a minute: the wait is whole seconds, at least 1 and at most one token's time.
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    const { error } = await res.json();
    expect(error).toMatchObject({ name: "AppError", code: "rate_limited" });
    expect(error.message).toContain("3");
    expect(error.fix).toContain(`${retryAfter} s`);
    expect(await ledgerCount()).toBe(before);
  });

  it("answers a tool call over the limit with a tool error, and counts tools/list and ping (429 on their own)", async () => {
    // initialize, tools/list and ping take one token each, the two calls the rest.
    setLimit(5);
    const { client } = await connectMcp(server.url, await freshKey());
    try {
      await client.listTools();
      await client.ping();
      for (let i = 0; i < 2; i++) expect((await client.callTool({ name: "whoami", arguments: {} })).isError).toBeFalsy();
      const refused = await client.callTool({ name: "whoami", arguments: {} });
      expect(refused.isError).toBe(true);
      const body = JSON.parse((refused.content as { type: string; text: string }[])[0].text);
      expect(body).toMatchObject({ name: "AppError", code: "rate_limited" });
      expect(body.fix).toMatch(/Wait \d+ s/);
      // Found by helper-102: uncounted, one key drew about 470 tools/list answers in 2 s at a limit of 3 a minute.
      await expect(client.listTools()).rejects.toThrow(/429|Too many calls/);
      await expect(client.ping()).rejects.toThrow(/429|Too many calls/);
    } finally {
      await client.close();
    }
  });

  it("counts initialize, which writes a session: a flood of new sessions is refused with 429 and writes nothing", async () => {
    setLimit(1);
    const secret = await freshKey();
    const init = () =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "flood" } },
        }),
      });
    expect((await init()).status).toBe(200);
    const before = await ledgerCount();
    const refused = await init();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await ledgerCount()).toBe(before);
  });

  it("limits each key on its own: another key of the same project is unaffected", async () => {
    setLimit(2);
    const [spent, other] = [await freshKey(), await freshKey()];
    for (let i = 0; i < 2; i++) await whoami(spent);
    expect((await whoami(spent)).status).toBe(429);
    expect((await whoami(other)).status).toBe(200);
    expect((await whoami(other)).status).toBe(200);
  });

  it("refills continuously: after Retry-After seconds the key may call again", async () => {
    // 60 a minute is one token a second, so the bucket is empty after a burst and back within Retry-After.
    setLimit(60);
    const secret = await freshKey();
    let res = await whoami(secret);
    for (let i = 0; i < 200 && res.status === 200; i++) res = await whoami(secret);
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBe(1);
    await sleep(retryAfter * 1000 + 50);
    expect((await whoami(secret)).status).toBe(200);
  });

  it("turns off at 0, even for a key whose bucket is empty", async () => {
    setLimit(1);
    const secret = await freshKey();
    await whoami(secret);
    expect((await whoami(secret)).status).toBe(429);
    setLimit(0);
    for (let i = 0; i < 5; i++) expect((await whoami(secret)).status).toBe(200);
  });

  it("does not limit the owner's calls", async () => {
    setLimit(1);
    const owner = { authorization: `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}` };
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/api/v1/keys`, { headers: owner })).status).toBe(200);
  });
});
