import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { connectMcp, rawMcp } from "@/lib/testing/mcp-client";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { count, eq, inArray, sql } from "drizzle-orm";
import { mcpSessions } from "@/lib/db/schema/keys";
import { sessionCache } from "@/lib/keys/auth-cache";
import { purgeMcpSessions } from "@/lib/mcp/purge-sessions";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
const auth = () => ({ authorization: `Bearer ${seeded.secret}` });
const init = (version = "2025-06-18") => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw-test", version: "1" } },
});
const call = (name: string, args: unknown = {}) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } });
const ledgerCount = async () => (await (await getDb()).select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.projectId, seeded.project.id)))[0].n;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ scopes: ["ledger:read"] });
});
afterAll(() => server.close());

describe("MCP transport", () => {
  it("negotiates 2025-06-18 and 2025-11-25 and issues a session id", async () => {
    for (const v of ["2025-06-18", "2025-11-25"]) {
      const res = await rawMcp(server.url, init(v), auth());
      expect(res.status).toBe(200);
      expect(res.headers.get("mcp-session-id")).toMatch(/^[0-9A-Za-z]{32}$/);
      expect((await res.json()).result.protocolVersion).toBe(v);
    }
  });

  it("answers an unknown requested version with the latest one", async () => {
    const res = await rawMcp(server.url, init("2023-01-01"), auth());
    expect((await res.json()).result.protocolVersion).toBe("2025-11-25");
  });

  it("rejects an unsupported MCP-Protocol-Version header with 400", async () => {
    const res = await rawMcp(server.url, call("whoami"), { ...auth(), "mcp-protocol-version": "1999-01-01" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.data.code).toBe("bad_request");
  });

  it("rejects a foreign Origin with 403 and allows a missing one", async () => {
    const bad = await rawMcp(server.url, init(), { ...auth(), origin: "http://evil.example" });
    expect(bad.status).toBe(403);
    const rebinding = await rawMcp(server.url, init(), { ...auth(), origin: "http://evil.example", host: "evil.example" });
    expect(rebinding.status).toBe(403);
    const ok = await rawMcp(server.url, init(), { ...auth(), origin: server.url });
    expect(ok.status).toBe(200);
  });

  it("answers malformed JSON with a parse error and a non-JSON-RPC body with invalid request", async () => {
    const before = await ledgerCount();
    const parse = await rawMcp(server.url, "{not json", auth());
    expect(parse.status).toBe(400);
    expect((await parse.json()).error.code).toBe(-32700);
    const invalid = await rawMcp(server.url, { hello: "world" }, auth());
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.code).toBe(-32600);
    // Batches are 2025-03-26 only (mcp-protocol.test.ts).
    const batch = await rawMcp(server.url, [call("whoami")], { ...auth(), "mcp-protocol-version": "2025-06-18" });
    expect(batch.status).toBe(400);
    const unknownMethod = await rawMcp(server.url, { jsonrpc: "2.0", id: 9, method: "resources/list" }, auth());
    expect((await unknownMethod.json()).error.code).toBe(-32601);
    const unknownTool = await rawMcp(server.url, call("no_such_tool"), auth());
    expect((await unknownTool.json()).error.code).toBe(-32602);
    // Params that are not a call name the part that is wrong.
    for (const [params, named] of [
      [{ name: "whoami", arguments: [] }, "params.arguments"],
      [{ name: "whoami", arguments: "{}" }, "params.arguments"],
      [{ arguments: {} }, "params.name"],
    ] as const) {
      const res = await rawMcp(server.url, { jsonrpc: "2.0", id: 7, method: "tools/call", params }, auth());
      expect((await res.json()).error, named).toMatchObject({ code: -32602, message: expect.stringContaining(`tools/call ${named}:`) });
    }
    expect(await ledgerCount()).toBe(before);
  });

  it("refuses a missing, malformed or revoked key with 401", async () => {
    expect((await rawMcp(server.url, init())).status).toBe(401);
    expect((await rawMcp(server.url, init(), { authorization: "Bearer nope" })).status).toBe(401);
    const res = await rawMcp(server.url, init(), { authorization: `Bearer brk_live_${"x".repeat(32)}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("refuses oversized bodies with 413", async () => {
    const big = JSON.stringify(call("whoami", { pad: "x".repeat(3 * 1024 * 1024) }));
    const res = await rawMcp(server.url, big, auth());
    expect(res.status).toBe(413);
  });

  it("refuses a non-JSON content type with 415 and GET with 405", async () => {
    const res = await fetch(`${server.url}/mcp`, { method: "POST", headers: { ...auth(), "content-type": "text/plain" }, body: "x" });
    expect(res.status).toBe(415);
    const get = await fetch(`${server.url}/mcp`, { headers: { ...auth(), accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });

  it("answers JSON or SSE as the client accepts", async () => {
    const sse = await rawMcp(server.url, call("whoami"), { ...auth(), accept: "text/event-stream" });
    expect(sse.headers.get("content-type")).toContain("text/event-stream");
    const text = await sse.text();
    const data = text.split("\n").find((l) => l.startsWith("data: "))!;
    expect(JSON.parse(data.slice(6)).result.structuredContent.key.scopes).toEqual(["ledger:read"]);
    const json = await rawMcp(server.url, call("whoami"), { ...auth(), accept: "application/json" });
    expect(json.headers.get("content-type")).toContain("application/json");
  });

  it("serves a session, answers another key as for an unknown session, ends it on DELETE and then answers 404", async () => {
    const res = await rawMcp(server.url, init(), auth());
    const sessionId = res.headers.get("mcp-session-id")!;
    const ok = await rawMcp(server.url, call("whoami"), { ...auth(), "mcp-session-id": sessionId });
    expect((await ok.json()).result.structuredContent.session_id).toBe(sessionId);

    // Another key learns nothing, not even that the session exists: the same 404 and body as an unknown id.
    const other = await seedKey(seeded.project.id, ["ledger:read"]);
    const otherAuth = { authorization: `Bearer ${other.secret}` };
    const unknownBody = await (await rawMcp(server.url, call("whoami"), { ...otherAuth, "mcp-session-id": "doesnotexist" })).text();
    for (const method of ["POST", "DELETE"]) {
      const stolen = await rawMcp(server.url, call("whoami"), { ...otherAuth, "mcp-session-id": sessionId }, method);
      expect(stolen.status, method).toBe(404);
      if (method === "POST") expect(await stolen.text()).toBe(unknownBody);
    }
    const stillThere = await rawMcp(server.url, call("whoami"), { ...auth(), "mcp-session-id": sessionId });
    expect(stillThere.status).toBe(200);

    const del = await rawMcp(server.url, null, { ...auth(), "mcp-session-id": sessionId }, "DELETE");
    expect(del.status).toBe(200);
    const after = await rawMcp(server.url, call("whoami"), { ...auth(), "mcp-session-id": sessionId });
    expect(after.status).toBe(404);
    const unknown = await rawMcp(server.url, call("whoami"), { ...auth(), "mcp-session-id": "doesnotexist" });
    expect(unknown.status).toBe(404);
  });

  it("marks a session in use as seen (at most hourly) and purges sessions a week idle or a day ended; a purged one answers 404", async () => {
    const db = await getDb();
    const open = async () => (await rawMcp(server.url, init(), auth())).headers.get("mcp-session-id")!;
    const [idle, used, ended, endedToday, recent] = [await open(), await open(), await open(), await open(), await open()];
    const hoursAgo = (h: number) => sql`now() - make_interval(hours => ${h})`;
    const seen = async (id: string) => (await db.select().from(mcpSessions).where(eq(mcpSessions.id, id)))[0].lastSeenAt.getTime();
    await db
      .update(mcpSessions)
      .set({ lastSeenAt: hoursAgo(8 * 24) })
      .where(inArray(mcpSessions.id, [idle, used]));
    await db.update(mcpSessions).set({ lastSeenAt: sql`now() - interval '30 minutes'` }).where(eq(mcpSessions.id, recent));
    await db
      .update(mcpSessions)
      .set({ endedAt: hoursAgo(25) })
      .where(eq(mcpSessions.id, ended));
    await db
      .update(mcpSessions)
      .set({ endedAt: hoursAgo(1) })
      .where(eq(mcpSessions.id, endedToday));
    sessionCache.invalidate(db);

    for (const id of [used, recent]) expect((await rawMcp(server.url, call("whoami"), { ...auth(), "mcp-session-id": id })).status).toBe(200);
    // Written off the request's path: the stale mark is renewed; one within the hour is left alone.
    await expect.poll(() => seen(used)).toBeGreaterThan(Date.now() - 60_000);
    expect(await seen(recent)).toBeLessThan(Date.now() - 29 * 60_000);

    await purgeMcpSessions(db);
    const left = await db
      .select({ id: mcpSessions.id })
      .from(mcpSessions)
      .where(inArray(mcpSessions.id, [idle, used, ended, endedToday, recent]));
    expect(left.map((r) => r.id).sort()).toEqual([used, endedToday, recent].sort());
    sessionCache.invalidate(db);
    const gone = await rawMcp(server.url, call("whoami"), { ...auth(), "mcp-session-id": idle });
    expect(gone.status).toBe(404);
  });

  it("resumes a session with a new SDK client transport", async () => {
    const first = await connectMcp(server.url, seeded.secret);
    const sessionId = first.transport.sessionId!;
    const second = await connectMcp(server.url, seeded.secret, { sessionId });
    const res = await second.client.callTool({ name: "whoami", arguments: {} });
    expect((res.structuredContent as { session_id: string }).session_id).toBe(sessionId);
  });

  it("records identity from session_hello, X-Brynth headers, then clientInfo", async () => {
    const { client } = await connectMcp(server.url, seeded.secret);
    let who = (await client.callTool({ name: "whoami", arguments: {} })).structuredContent as { agent: string };
    expect(who.agent).toBe("brynth-test");
    const hello = await client.callTool({ name: "session_hello", arguments: { agent: "claude-code@laptop", platform: "weird" } });
    expect((hello.structuredContent as { platform: string }).platform).toBe("custom");
    who = (await client.callTool({ name: "whoami", arguments: {} })).structuredContent as { agent: string };
    expect(who).toMatchObject({ agent: "claude-code@laptop", platform: "custom" });

    const viaHeaders = await connectMcp(server.url, seeded.secret, {
      headers: { "X-Brynth-Agent": "codex@ci", "X-Brynth-Platform": "codex" },
    });
    who = (await viaHeaders.client.callTool({ name: "whoami", arguments: {} })).structuredContent as { agent: string };
    expect(who).toMatchObject({ agent: "codex@ci", platform: "codex" });
  });

  it("keeps tool errors as isError results with name, code, message and fix, writing nothing", async () => {
    const { client } = await connectMcp(server.url, seeded.secret);
    const before = await ledgerCount();
    // A NUL, a lone surrogate or a year PostgreSQL cannot read reached the query and came back as internal_error.
    const refused = [
      { limit: 501 },
      { limit: "ten" },
      { cursor: 0 },
      { since: "yesterday" },
      { op: "kv.set\u0000" },
      { subject: "\ud800" },
      { since: "0000-06-01" },
    ];
    for (const args of refused) {
      const res = await client.callTool({ name: "ledger_query", arguments: args });
      expect(res.isError).toBe(true);
      const body = JSON.parse((res.content as { text: string }[])[0].text);
      expect(body).toMatchObject({ name: "AppError", code: "validation_error", fix: expect.any(String) });
      expect(body.message).toMatch(new RegExp(`^${Object.keys(args)[0]}:`));
    }
    const res = await client.callTool({ name: "ledger_verify", arguments: { from_seq: 5, to_seq: 2 } });
    expect(JSON.parse((res.content as { text: string }[])[0].text).code).toBe("validation_error");
    expect(await ledgerCount()).toBe(before);
  });
});
