import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllSockets, streamSocket } from "@/lib/http/stream/stream-test-client";
import { addMailbox } from "@/lib/mail/__tests__/mail-store-helpers";
import { basicOwner, connect } from "@/lib/oauth/__tests__/oauth-steps";
import { startApiServer } from "@/lib/testing/api-server";
import { rawMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";

/**
 * A deleted project's keys, grants and sessions go with its cascade, without a revocation: each must still end at
 * once, in every cache and for whatever is under way, as a revoked one does.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  closeAllSockets();
  await server.close();
});

const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const whoami = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } };

async function deleteProject(id: string, name: string) {
  const res = await fetch(`${server.url}/api/v1/projects/${id}/delete`, {
    method: "POST",
    headers: { authorization: basicOwner, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ confirm: name }),
  });
  expect(res.status).toBe(200);
}

describe("deleting a project", () => {
  it("refuses its OAuth tokens at once, though the instance had them cached", async () => {
    const seeded = await seedProject({ name: "Doomed" });
    const { tokens } = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    for (let i = 0; i < 3; i++) expect((await rawMcp(server.url, list, auth)).status).toBe(200);
    await deleteProject(seeded.project.id, "Doomed");
    // Before: the cached grant answered 200 for up to 10 s, and its calls failed internal_error on the ledger.
    const after = await rawMcp(server.url, whoami, auth);
    expect(after.status, await after.text()).toBe(401);
  });

  it("closes its keys' live streams, as revoking the key does", async () => {
    const seeded = await seedProject({ name: "Streamed" });
    const box = await addMailbox(seeded.project.id, "alpha");
    const s = await streamSocket(server.url, { authorization: `Bearer ${seeded.secret}` });
    expect(await s.subscribe({ inbox_ids: [box.id] })).toMatchObject({ type: "subscribed" });
    await deleteProject(seeded.project.id, "Streamed");
    // Before: the watcher counted only keys marked revoked, and a key gone with its project never was.
    await expect.poll(() => s.closed(), { timeout: 3000, interval: 50 }).toMatchObject({ code: 1008 });
  });

  it("ends its keys' waiting calls unauthorized, not with a server error", async () => {
    const seeded = await seedProject({ name: "Waited" });
    const waiting = fetch(`${server.url}/api/v1/events/wait?source=gone&timeout_seconds=30`, {
      headers: { authorization: `Bearer ${seeded.secret}` },
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    await new Promise((r) => setTimeout(r, 300));
    await deleteProject(seeded.project.id, "Waited");
    // Before: the wait ran its course, then its ledger entry for the deleted project failed: 500 internal_error.
    expect(await waiting).toMatchObject({
      status: 401,
      body: { error: { code: "unauthorized", message: "This key went with its deleted project while the call waited." } },
    });
  });
});
