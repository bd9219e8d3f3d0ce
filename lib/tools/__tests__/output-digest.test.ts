import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { digest } from "@/lib/ledger/canonical";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;
let client: Client;

beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject({ scopes: ["disk", "inbox:read"] });
  client = (await connectMcp(server.url, project.secret)).client;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

const lastEntry = (op: string) => lastLedgerEntry(project.project.id, op);

describe("ledger digests of a tool call", () => {
  it("digests the REST response body exactly as received, and the input as canonical JSON", async () => {
    const res = await fetch(`${server.url}/api/v1/kv/digest%2Frest`, {
      method: "PUT",
      headers: { authorization: `Bearer ${project.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ value: { b: 1, a: [2, { d: 3, c: 4 }] } }),
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    const entry = await lastEntry("kv.set");
    expect(entry.outputDigest).toBe(sha256(body));
    // The same input in another key order digests the same.
    expect(entry.inputDigest).toBe(digest({ value: { a: [2, { c: 4, d: 3 }], b: 1 }, key: "digest/rest" }));
  });

  it("digests the MCP text content exactly as received", async () => {
    const res = await client.callTool({ name: "kv_get", arguments: { key: "digest/rest" } });
    const text = (res.content as { text: string }[])[0].text;
    expect(JSON.parse(text)).toEqual(res.structuredContent);
    expect((await lastEntry("kv.get")).outputDigest).toBe(sha256(text));
  });
});
