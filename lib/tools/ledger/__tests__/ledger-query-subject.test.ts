import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { mcpCall, restCall } from "@/lib/tools/events/__tests__/tool-client";

let server: Awaited<ReturnType<typeof startApiServer>>;
let secret: string;
let client: Client;

beforeAll(async () => {
  server = await startApiServer();
  secret = (await seedProject()).secret;
  client = (await connectMcp(server.url, secret)).client;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe("ledger_query subject", () => {
  it("finds the entries of the longest subject a call records: a 512-byte key", async () => {
    const key = `orders/${"x".repeat(505)}`;
    expect((await mcpCall(client, "kv_set", { key, value: 1 })).ok).toBe(true);
    const found = await mcpCall(client, "ledger_query", { subject: key });
    expect(found.ok && found.data.entries.map((e: { op: string; subject: string }) => [e.op, e.subject])).toEqual([["kv.set", key]]);
    const rest = await restCall(server.url, secret, "GET", `/ledger?subject=${encodeURIComponent(key)}`);
    expect(rest.status).toBe(200);
    expect(rest.body.entries).toHaveLength(1);
  });
});
