import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { startApiServer } from "@/lib/testing/api-server";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { connectMcp, rawMcp } from "@/lib/testing/mcp-client";
import { useTwoInstances } from "@/lib/testing/spawn-instance";

/** Longer than any test may run (testTimeout 30 s): a call that ends at all was ended by its cancel. */
const WAIT_SECONDS = 120;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitCall = (id: number, seconds = WAIT_SECONDS) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "inbox_wait", arguments: { timeout_seconds: seconds } },
});
const cancel = (requestId: number) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "test" } });
const waitEntries = async (projectId: string) =>
  (
    await (
      await getDb()
    )
      .select({ n: count() })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, projectId), eq(ledgerEntries.op, "inbox.wait")))
  )[0].n;
const messages = (sse: string) =>
  sse
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));

async function openSession(url: string, secret: string, protocolVersion = "2025-06-18") {
  const res = await rawMcp(
    url,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "cancel-test", version: "1" } },
    },
    { authorization: `Bearer ${secret}` },
  );
  return { authorization: `Bearer ${secret}`, "mcp-session-id": res.headers.get("mcp-session-id")!, "mcp-protocol-version": protocolVersion };
}

/** Starts a wait on `callUrl` that only a cancel can end in time, cancels it on `cancelUrl` after a second; the stream's text. */
async function waitThenCancel(callUrl: string, cancelUrl: string, headers: Record<string, string>) {
  const res = await rawMcp(callUrl, waitCall(7), headers);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const body = res.text();
  await sleep(1000);
  expect((await rawMcp(cancelUrl, cancel(7), headers)).status).toBe(202);
  return body;
}

describe("notifications/cancelled", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let seeded: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    server = await startApiServer();
    seeded = await seedProject();
  });
  afterAll(() => server.close());

  it("aborts the waiting call it names: no response, and the ledger entry a disconnect writes", async () => {
    const headers = await openSession(server.url, seeded.secret);
    const before = await waitEntries(seeded.project.id);
    // The stream ended, which only the cancel could make it do in time; a cancelled request gets no response (spec).
    const text = await waitThenCancel(server.url, server.url, headers);
    expect(messages(text)).toEqual([]);
    expect(await waitEntries(seeded.project.id)).toBe(before + 1);
  });

  it("leaves alone a call of another session, even of the same key", async () => {
    const mine = await openSession(server.url, seeded.secret);
    const other = await openSession(server.url, seeded.secret);
    const res = await rawMcp(server.url, waitCall(7, 2), mine);
    const body = res.text();
    await sleep(500);
    expect((await rawMcp(server.url, cancel(7), other)).status).toBe(202);
    // Another key cannot even use the session to send it: to that key the session does not exist.
    const stranger = await seedKey(seeded.project.id, ["inbox:read"]);
    const stolen = await rawMcp(server.url, cancel(7), { ...mine, authorization: `Bearer ${stranger.secret}` });
    expect(stolen.status).toBe(404);
    expect(messages(await body)).toMatchObject([{ id: 7, result: { structuredContent: { event: null } } }]);
  });

  it("counts each cancel as a call of its key: over KEY_CALLS_PER_MINUTE one gets 429, and so does a batch of them", async () => {
    // A cancel that misses this instance is published to all of them through the database. Uncounted, one key sent
    // batches of 100 cancels with 7 KB request ids as fast as it could, and the rounds of NOTIFYs failed whole.
    const original = process.env.KEY_CALLS_PER_MINUTE;
    process.env.KEY_CALLS_PER_MINUTE = "4";
    resetEnvCache();
    try {
      const own = await seedProject();
      const single = await openSession(server.url, own.secret);
      const batched = await openSession(server.url, own.secret, "2025-03-26");
      expect((await rawMcp(server.url, cancel(1), single)).status).toBe(202);
      expect((await rawMcp(server.url, [cancel(2)], batched)).status).toBe(202);
      // Four tokens: two sessions and two cancels. The next cancel, alone or in a batch with a call, is refused.
      const over = await rawMcp(server.url, cancel(3), single);
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await over.json()).error.data.code).toBe("rate_limited");
      const overBatch = await rawMcp(server.url, [waitCall(4, 1), cancel(4)], batched);
      expect(overBatch.status).toBe(429);
      expect((await overBatch.json()).error.data.code).toBe("rate_limited");
    } finally {
      if (original === undefined) delete process.env.KEY_CALLS_PER_MINUTE;
      else process.env.KEY_CALLS_PER_MINUTE = original;
      resetEnvCache();
    }
  });

  it("is what the SDK client sends when a call's signal aborts", async () => {
    const { client } = await connectMcp(server.url, seeded.secret);
    const before = await waitEntries(seeded.project.id);
    const abort = new AbortController();
    const call = client.callTool({ name: "inbox_wait", arguments: { timeout_seconds: WAIT_SECONDS } }, undefined, { signal: abort.signal });
    await sleep(1000);
    abort.abort("changed my mind");
    await expect(call).rejects.toThrow();
    // The server stopped too: its entry is written, which the wait itself could not do before the test ends.
    await expect.poll(() => waitEntries(seeded.project.id), { timeout: 5000, interval: 100 }).toBe(before + 1);
    await client.close();
  });
});

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
describe.runIf(onPostgres)("notifications/cancelled across instances", () => {
  const instances = useTwoInstances();

  it("reaches the instance running the call through LISTEN/NOTIFY", async () => {
    const seeded = await seedProject();
    const headers = await openSession(instances.a.url, seeded.secret);
    const before = await waitEntries(seeded.project.id);
    const text = await waitThenCancel(instances.a.url, instances.b.url, headers);
    expect(messages(text)).toEqual([]);
    expect(await waitEntries(seeded.project.id)).toBe(before + 1);
  });
});
