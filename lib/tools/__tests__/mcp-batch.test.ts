import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { rawMcp } from "@/lib/testing/mcp-client";
import { BATCH_PROTOCOL, PROTOCOL_VERSIONS } from "@/lib/mcp/protocol";

/**
 * The decision pinned: 2025-03-26 is offered because JSON-RPC batches (part of that version only) work for it; from
 * 2025-06-18 on, a batch is an invalid request.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let auth: Record<string, string>;
beforeAll(async () => {
  server = await startApiServer();
  auth = { authorization: `Bearer ${(await seedProject({ scopes: ["ledger:read"] })).secret}` };
});
afterAll(() => server.close());

async function session(version: string) {
  const res = await rawMcp(
    server.url,
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "batch-test", version: "1" } } },
    auth,
  );
  expect((await res.json()).result.protocolVersion).toBe(version);
  return { ...auth, "mcp-session-id": res.headers.get("mcp-session-id")! };
}
const ping = (id: number | string) => ({ jsonrpc: "2.0", id, method: "ping" });
const whoami = (id: number | string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "whoami", arguments: {} } });
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

describe("JSON-RPC batches", () => {
  it("offers the SDK's Streamable HTTP versions, 2025-03-26 included", () => {
    expect(PROTOCOL_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26"]);
    expect(PROTOCOL_VERSIONS.every((v) => SUPPORTED_PROTOCOL_VERSIONS.includes(v))).toBe(true);
    expect(PROTOCOL_VERSIONS).toContain(BATCH_PROTOCOL);
  });

  it("answers a 2025-03-26 batch of requests with an array of their responses", async () => {
    const headers = await session("2025-03-26");
    const res = await rawMcp(server.url, [ping(1), initialized, whoami("two")], { ...headers, accept: "application/json" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: unknown; result: { structuredContent?: { session_id: string } } }[];
    expect(body.map((m) => m.id)).toEqual([1, "two"]);
    expect(body[0].result).toEqual({});
    expect(body[1].result.structuredContent!.session_id).toBe(headers["mcp-session-id"]);
  });

  it("refuses reads past 4 MB of a batch's answers, and still answers its writes: 60 tools/list were 11 MB for one small request", async () => {
    const full = `Bearer ${(await seedProject()).secret}`;
    const init = await rawMcp(
      server.url,
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "batch-test", version: "1" } },
      },
      { authorization: full },
    );
    const headers = { authorization: full, "mcp-session-id": init.headers.get("mcp-session-id")!, accept: "application/json" };
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
    const write = { jsonrpc: "2.0", id: "write", method: "tools/call", params: { name: "kv_set", arguments: { key: "batch", value: 1 } } };
    const res = await rawMcp(server.url, [...Array.from({ length: 60 }, (_, i) => list(i)), write], headers);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(5 << 20);
    const body = JSON.parse(text) as { id: unknown; result?: { tools?: unknown[]; isError?: boolean }; error?: { message: string } }[];
    expect(body).toHaveLength(61);
    const lists = body.filter((m) => m.id !== "write");
    expect(lists.filter((m) => m.result?.tools?.length).length).toBeGreaterThan(0);
    const refused = lists.filter((m) => m.error);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].error!.message).toContain("send this request on its own");
    expect(body.find((m) => m.id === "write")!.result!.isError).toBeFalsy();
  });

  it("streams a batch's responses when the client takes only SSE, and accepts a batch of notifications with 202", async () => {
    const headers = { ...(await session("2025-03-26")), "mcp-protocol-version": "2025-03-26" };
    const sse = await rawMcp(server.url, [ping(1), ping(2)], { ...headers, accept: "text/event-stream" });
    expect(sse.headers.get("content-type")).toContain("text/event-stream");
    const ids = (await sse.text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)).id);
    expect(ids.sort()).toEqual([1, 2]);
    expect((await rawMcp(server.url, [initialized, initialized], headers)).status).toBe(202);
  });

  it("takes a batch without a session or version header as 2025-03-26, the spec's default", async () => {
    const res = await rawMcp(server.url, [ping(5)], { ...auth, accept: "application/json" });
    expect(await res.json()).toEqual([{ jsonrpc: "2.0", id: 5, result: {} }]);
  });

  it("refuses batches from 2025-06-18 on, by header or by the session's version", async () => {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const headers = await session(version);
      for (const h of [headers, { ...headers, "mcp-protocol-version": version }]) {
        const res = await rawMcp(server.url, [ping(1)], h);
        expect(res.status).toBe(400);
        expect((await res.json()).error.code).toBe(-32600);
      }
    }
  });

  it("refuses a batch holding initialize, an invalid member, or nothing", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    for (const batch of [[init], [ping(1), { hello: "world" }], []]) {
      const res = await rawMcp(server.url, batch, auth);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe(-32600);
    }
  });
});
