import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { rawMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";

/** /mcp under hostile use: text the database cannot store, credentials in the URL, request ids used twice. */
let server: Awaited<ReturnType<typeof startApiServer>>;
let secret: string;
beforeAll(async () => {
  server = await startApiServer();
  secret = (await seedProject({ name: "MCP hostile transport" })).secret;
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const init = (clientInfo: Record<string, unknown>, protocolVersion = "2025-06-18") => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo },
});
const waitCall = (id: number, seconds: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "inbox_wait", arguments: { timeout_seconds: seconds } },
});
const cancel = (requestId: number) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "test" } });
const messages = (sse: string) =>
  sse
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));

async function openSession(protocolVersion: string) {
  const res = await rawMcp(server.url, init({ name: "dup", version: "1" }, protocolVersion), { authorization: `Bearer ${secret}` });
  return { authorization: `Bearer ${secret}`, "mcp-session-id": res.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": protocolVersion };
}

describe("initialize with text the database cannot store", () => {
  for (const [label, clientInfo] of [
    ["a NUL in clientInfo.name", { name: "evil\u0000client", version: "1" }],
    ["a NUL in clientInfo.version", { name: "client", version: "1\u0000" }],
    ["a lone surrogate in clientInfo.name", { name: "client \ud800", version: "1" }],
  ] as const) {
    // Before: a NUL failed the session INSERT inside PostgreSQL (500); a lone surrogate was stored as U+FFFD.
    it(`refuses ${label} with invalid params`, async () => {
      const res = await rawMcp(server.url, init(clientInfo), { authorization: `Bearer ${secret}` });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: 1, error: { code: -32602 } });
    });
  }
});

describe("a key in the URL", () => {
  it("is refused with 401 under every name the stream refuses, percent-encoded too, beside a valid header", async () => {
    // Before: /mcp matched only access_token, api_key and key in the raw URL, so ?token=, ?apikey= and ?api%5Fkey= passed.
    for (const name of ["token", "apikey", "api%5Fkey", "access_token", "key"]) {
      const res = await fetch(`${server.url}/mcp?${name}=${secret}`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(init({ name: "u", version: "1" })),
      });
      expect([name, res.status]).toEqual([name, 401]);
      const stream = await fetch(`${server.url}/api/v1/stream?${name}=${secret}`, { headers: { authorization: `Bearer ${secret}` } });
      expect([name, stream.status]).toEqual([name, 401]);
    }
  });
});

describe("request ids used twice in one session", () => {
  it("refuses a batch holding two requests of one id", async () => {
    const headers = await openSession("2025-03-26");
    // Before: accepted, and a cancel of that id reached only one of the two.
    const res = await rawMcp(server.url, [waitCall(7, 4), waitCall(7, 4)], headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining("request id 7 twice") } });
  });

  it("refuses a waiting call reusing the id of one still running, and the cancel of that id reaches the first", async () => {
    const headers = await openSession("2025-06-18");
    const first = (await rawMcp(server.url, waitCall(9, 4), headers)).text();
    await sleep(300);
    // Before: the second replaced the first's entry, and the first ran on, unreachable by its cancel, to its timeout.
    const second = await rawMcp(server.url, waitCall(9, 4), headers);
    expect(await second.json()).toMatchObject({ id: 9, error: { code: -32600, message: expect.stringContaining("already in use") } });
    expect((await rawMcp(server.url, cancel(9), headers)).status).toBe(202);
    expect(messages(await first).filter((m) => "result" in m)).toEqual([]);
  });
});
