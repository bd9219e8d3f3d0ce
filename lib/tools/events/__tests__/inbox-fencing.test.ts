import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { getDb } from "@/lib/db/client";
import { getEventDetail } from "@/lib/events/get-event-detail";
import { seedEvents, timeTravel } from "@/lib/testing/events";
import { mcpCall } from "@/lib/tools/events/__tests__/tool-client";

/*
 * Two workers sharing one key (issue 15, defect 5). Without a lease_token, an ack or nack settles only a claim
 * made in the same MCP session, or over REST with the same X-Brynth-Agent; the token alone is the exact fence.
 */

let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;
let worker1: Client;
let worker2: Client;

beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject({ name: "fencing" });
  worker1 = (await connectMcp(server.url, project.secret)).client;
  worker2 = (await connectMcp(server.url, project.secret)).client;
});
afterAll(async () => {
  await worker1.close();
  await worker2.close();
  await server.close();
});

const emit = (type: string) => seedEvents(project.project.id, [{ type }]).then((ids) => ids[0]);

/** Done with worker 2's result: the first attempt expired, the second was acked, and nothing else happened. */
async function expectSettledBySecondClaim(eventId: string) {
  const { event, attempts } = await getEventDetail(await getDb(), { actor: project.actor, eventId });
  expect(event).toMatchObject({ status: "done", result: "from worker 2", attempts: 2 });
  expect(attempts.map((a) => [a.attempt, a.outcome])).toEqual([
    [1, "expired"],
    [2, "acked"],
  ]);
}

/** A REST call as one agent identity of the project's key. */
async function rest(agent: string, path: string, body: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${project.secret}`, "content-type": "application/json", "x-brynth-agent": agent },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("fencing within one key, over MCP (two sessions)", () => {
  it("refuses the first session's token-less ack and nack once another session re-claimed, and lets the second ack", async () => {
    const id = await emit("fence.mcp");
    const first = await mcpCall(worker1, "inbox_claim", { event_id: id, lease_seconds: 30 });
    expect(first.ok).toBe(true);
    await timeTravel(id, "lease");
    const second = await mcpCall(worker2, "inbox_claim", { event_id: id, lease_seconds: 30 });
    expect(second.ok && second.data.attempts).toBe(2);

    const late = await mcpCall(worker1, "inbox_ack", { event_id: id, result: "from worker 1" });
    expect(late).toMatchObject({ ok: false, code: "LEASE_LOST" });
    expect(!late.ok && late.message).toContain("another MCP session or agent identity of this key");
    const lateNack = await mcpCall(worker1, "inbox_nack", { event_id: id, reason: "from worker 1" });
    expect(lateNack).toMatchObject({ ok: false, code: "LEASE_LOST" });

    const ok = await mcpCall(worker2, "inbox_ack", { event_id: id, result: "from worker 2" });
    expect(ok).toMatchObject({ ok: true, data: { status: "done", repeated: false } });
    await expectSettledBySecondClaim(id);
  });

  it("still lets the claiming session ack without a token, and repeat it", async () => {
    const id = await emit("fence.same-session");
    expect((await mcpCall(worker1, "inbox_claim", { event_id: id })).ok).toBe(true);
    expect(await mcpCall(worker1, "inbox_ack", { event_id: id })).toMatchObject({ ok: true, data: { repeated: false } });
    expect(await mcpCall(worker1, "inbox_ack", { event_id: id })).toMatchObject({ ok: true, data: { repeated: true } });
    // Another session of the key cannot pass for the one that acked, without the token.
    expect(await mcpCall(worker2, "inbox_ack", { event_id: id })).toMatchObject({ ok: false, code: "LEASE_LOST" });
  });

  it("lets the token settle the claim from anywhere, and only that claim", async () => {
    const id = await emit("fence.token");
    const first = await mcpCall(worker1, "inbox_claim", { event_id: id, lease_seconds: 30 });
    if (!first.ok) throw new Error(first.message);
    const refused = await mcpCall(worker2, "inbox_ack", { event_id: id });
    expect(refused).toMatchObject({ ok: false, code: "LEASE_LOST" });
    expect(!refused.ok && refused.message).toContain("lease_token");
    await timeTravel(id, "lease");
    const second = await mcpCall(worker2, "inbox_claim", { event_id: id, lease_seconds: 30 });
    if (!second.ok) throw new Error(second.message);
    expect(await mcpCall(worker1, "inbox_ack", { event_id: id, lease_token: first.data.lease_token })).toMatchObject({ ok: false, code: "LEASE_LOST" });
    // The token is the exact fence: the claim's own token settles it, even from another session or over REST.
    const viaRest = await rest("someone-else", `/events/${id}/nack`, { reason: "handed over", lease_token: second.data.lease_token });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toMatchObject({ status: "failed", attempts: 2 });
  });

  it("never lets another key settle a claim, even with its token", async () => {
    const id = await emit("fence.other-key");
    const claim = await mcpCall(worker1, "inbox_claim", { event_id: id, lease_seconds: 30 });
    if (!claim.ok) throw new Error(claim.message);
    const other = await seedKey(project.project.id, ["inbox:read", "inbox:write"], "other worker");
    const res = await fetch(`${server.url}/api/v1/events/${id}/ack`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ lease_token: claim.data.lease_token }),
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("LEASE_LOST");
    expect(await mcpCall(worker1, "inbox_ack", { event_id: id, lease_token: claim.data.lease_token })).toMatchObject({ ok: true });
  });
});

describe("fencing within one key, over REST (two X-Brynth-Agent identities)", () => {
  it("refuses worker 1's token-less ack and nack once worker 2 re-claimed, and lets worker 2 ack", async () => {
    const id = await emit("fence.rest");
    expect((await rest("worker-1", `/events/${id}/claim`, { lease_seconds: 30 })).status).toBe(200);
    await timeTravel(id, "lease");
    const second = await rest("worker-2", `/events/${id}/claim`, { lease_seconds: 30 });
    expect(second.body.attempts).toBe(2);

    const late = await rest("worker-1", `/events/${id}/ack`, { result: "from worker 1" });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "LEASE_LOST", fix: expect.stringContaining("lease_token") });
    const lateNack = await rest("worker-1", `/events/${id}/nack`, { reason: "from worker 1", retry: false });
    expect(lateNack.body.error.code).toBe("LEASE_LOST");

    const ok = await rest("worker-2", `/events/${id}/ack`, { result: "from worker 2" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: "done", repeated: false });
    await expectSettledBySecondClaim(id);
  });

  it("still lets the same agent identity ack and nack without a token", async () => {
    const [a, b] = await seedEvents(project.project.id, [{ type: "fence.rest-same" }, { type: "fence.rest-same" }]);
    expect((await rest("worker-1", `/events/${a}/claim`, {})).status).toBe(200);
    expect((await rest("worker-1", `/events/${a}/ack`, {})).body).toMatchObject({ status: "done", repeated: false });
    expect((await rest("worker-1", `/events/${b}/claim`, {})).status).toBe(200);
    expect((await rest("worker-2", `/events/${b}/nack`, { reason: "not mine" })).body.error.code).toBe("LEASE_LOST");
    expect((await rest("worker-1", `/events/${b}/nack`, { reason: "mine" })).body).toMatchObject({ status: "failed" });
  });

  it("tells a caller whose token its own ack or newer claim made stale that it did so itself, not another consumer", async () => {
    const [a, b] = await seedEvents(project.project.id, [{ type: "fence.rest-self" }, { type: "fence.rest-self" }]);
    const claimed = (await rest("worker-1", `/events/${a}/claim`, {})).body;
    expect((await rest("worker-1", `/events/${a}/ack`, {})).status).toBe(200);
    const late = await rest("worker-1", `/events/${a}/nack`, { reason: "r", lease_token: claimed.lease_token });
    // Before: "another consumer finished it".
    expect(late.body.error).toMatchObject({
      code: "LEASE_LOST",
      message: `You do not hold the lease on event ${a}: you finished it already (an earlier inbox_ack or inbox_nack of yours).`,
    });
    const first = (await rest("worker-1", `/events/${b}/claim`, {})).body;
    await timeTravel(b, "lease");
    expect((await rest("worker-1", `/events/${b}/claim`, {})).status).toBe(200);
    const stale = await rest("worker-1", `/events/${b}/ack`, { lease_token: first.lease_token });
    expect(stale.body.error).toMatchObject({ code: "LEASE_LOST", fix: "Use the lease_token of your latest claim (inbox_claim returned it)." });
  });
});
