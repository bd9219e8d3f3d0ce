import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnApiInstance } from "@/lib/testing/spawn-instance";
import { seedProject } from "@/lib/testing/seed";
import { connectMcp } from "@/lib/testing/mcp-client";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");


// Instances share state only through Postgres; PGlite is single-process by design (data-dir lock).
describe.runIf(onPostgres)("two instances on one Postgres", () => {
  let a: Awaited<ReturnType<typeof spawnApiInstance>>;
  let b: Awaited<ReturnType<typeof spawnApiInstance>>;
  beforeAll(async () => {
    [a, b] = await Promise.all([spawnApiInstance(), spawnApiInstance()]);
  }, 60_000);
  afterAll(() => {
    a?.child.kill("SIGTERM");
    b?.child.kill("SIGTERM");
  });

  it("serves on instance B a session initialised on instance A, and ends it everywhere", async () => {
    const { secret } = await seedProject({ scopes: ["ledger:read"] });
    const onA = await connectMcp(a.url, secret);
    const sessionId = onA.transport.sessionId!;
    await onA.client.callTool({ name: "session_hello", arguments: { agent: "roamer", platform: "codex" } });

    const onB = await connectMcp(b.url, secret, { sessionId });
    const who = await onB.client.callTool({ name: "whoami", arguments: {} });
    expect(who.structuredContent).toMatchObject({ session_id: sessionId, agent: "roamer", platform: "codex" });

    await onB.transport.terminateSession();
    const res = await fetch(`${a.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(res.status).toBe(404);
    // The SDK client on A learns the session is gone too.
    await expect(onA.client.callTool({ name: "whoami", arguments: {} })).rejects.toThrow(/Unknown or ended MCP session/);
  });
});
