import { describe, expect, it } from "vitest";
import { useTwoInstances } from "@/lib/testing/spawn-instance";
import { seedProject } from "@/lib/testing/seed";
import { connectMcp } from "@/lib/testing/mcp-client";
import { getDb } from "@/lib/db/client";
import { revokeKey } from "@/lib/keys/revoke-key";
import { and, eq } from "drizzle-orm";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { verifyLedger } from "@/lib/ledger/verify-ledger";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
// Each instance caches keys and sessions; a change NOTIFYs every instance on commit, which takes milliseconds.
const PROPAGATION = { timeout: 2000, interval: 20 };

// Instances share state only through Postgres; PGlite is single-process by design (data-dir lock).
describe.runIf(onPostgres)("two instances on one Postgres", () => {
  const instances = useTwoInstances();

  it("serves on instance B a session initialised on instance A, and ends it everywhere", async () => {
    const { secret } = await seedProject({ scopes: ["ledger:read"] });
    const onA = await connectMcp(instances.a.url, secret);
    const sessionId = onA.transport.sessionId!;
    await onA.client.callTool({ name: "session_hello", arguments: { agent: "roamer", platform: "codex" } });

    const onB = await connectMcp(instances.b.url, secret, { sessionId });
    const who = await onB.client.callTool({ name: "whoami", arguments: {} });
    expect(who.structuredContent).toMatchObject({ session_id: sessionId, agent: "roamer", platform: "codex" });

    await onB.transport.terminateSession();
    await expect.poll(() => ping(instances.a.url, secret, sessionId), PROPAGATION).toBe(404);
    // The SDK client on A learns the session is gone too.
    await expect(onA.client.callTool({ name: "whoami", arguments: {} })).rejects.toThrow(/Unknown or ended MCP session/);
  });

  it("refuses a key on every instance once it is revoked, though both had it cached", async () => {
    const { secret, key, actor } = await seedProject({ scopes: ["ledger:read"] });
    expect(await ping(instances.a.url, secret)).toBe(200);
    expect(await ping(instances.b.url, secret)).toBe(200);
    const db = await getDb();
    await db.transaction((tx) => revokeKey(tx, { actor, keyId: key.id }));
    await expect.poll(() => ping(instances.a.url, secret), PROPAGATION).toBe(401);
    await expect.poll(() => ping(instances.b.url, secret), PROPAGATION).toBe(401);
  });

  it("chains one project's read calls served by both instances, each moving the head from under the other", async () => {
    const { secret, actor } = await seedProject({ scopes: ["ledger:read"] });
    const whoami = async (url: string) => (await fetch(`${url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } })).status;
    const statuses = await Promise.all(Array.from({ length: 80 }, (_, i) => whoami(i % 2 ? instances.a.url : instances.b.url)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const db = await getDb();
    const entries = await db
      .select({ seq: ledgerEntries.seq })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, actor.projectId), eq(ledgerEntries.op, "whoami")));
    expect(entries).toHaveLength(80);
    const result = await verifyLedger(db, { actor }); // seals what either instance left to its sealer first
    expect(result).toMatchObject({ ok: true, first_inconsistent_seq: null });
    expect(result.checked).toBe(result.to_seq);
    expect(result.to_seq).toBeGreaterThanOrEqual(80);
  });
});

async function ping(url: string, secret: string, sessionId?: string): Promise<number> {
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(sessionId ? { "mcp-session-id": sessionId } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  await res.body?.cancel();
  return res.status;
}
