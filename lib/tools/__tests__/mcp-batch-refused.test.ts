import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { rawMcp } from "@/lib/testing/mcp-client";

/**
 * A 2025-03-26 batch whose waiting tools/call was dispatched (and registered, so a cancel can name it) before a
 * later member's ping went over the call limit: the POST got 429, the call never ran, and it stayed registered for
 * ever, its request id refused as "already in use" (up to 99 entries a batch; found by helper-115).
 */
describe("batch refused by the rate limit", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  const original = process.env.KEY_CALLS_PER_MINUTE;
  beforeAll(async () => {
    process.env.KEY_CALLS_PER_MINUTE = "3";
    resetEnvCache();
    server = await startApiServer();
  });
  afterAll(async () => {
    await server.close();
    if (original === undefined) delete process.env.KEY_CALLS_PER_MINUTE;
    else process.env.KEY_CALLS_PER_MINUTE = original;
    resetEnvCache();
  });

  it("leaves no call tracked, and the request id is free again", async () => {
    const { secret } = await seedProject();
    const init = await rawMcp(
      server.url,
      { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "p", version: "1" } } },
      { authorization: `Bearer ${secret}` },
    );
    const headers = { authorization: `Bearer ${secret}`, "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-03-26" };
    const calls = () => (globalThis as { __brynthMcpCalls?: Map<string, unknown> }).__brynthMcpCalls?.size ?? 0;
    const before = calls();
    const waits = Array.from({ length: 50 }, (_, i) => ({
      jsonrpc: "2.0",
      id: 1000 + i,
      method: "tools/call",
      params: { name: "inbox_wait", arguments: { timeout_seconds: 1 } },
    }));
    const pings = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: "2.0", id: 2000 + i, method: "ping" }));
    const refused = await rawMcp(server.url, [...waits, ...pings], headers);
    expect(refused.status).toBe(429);
    // Nothing of a refused batch may stay registered.
    expect(calls() - before).toBe(0);
    // The same id, alone, must not be told it is "already in use by a running call" (no call of it ever ran).
    const again = await rawMcp(server.url, waits[0], { ...headers, accept: "application/json" });
    const text = await again.text();
    expect(text).not.toContain("already in use");
  });
});
