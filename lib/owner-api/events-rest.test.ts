import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";

/** The Events screen's requeue over owner REST, on events an agent sent to `dead` with inbox_nack over REST. */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Events REST");
  expect((await c.call("POST", "/owner/sources", { type: "webhook", name: "shop" })).status).toBe(201);
});
afterAll(() => c.server.close());

async function agent(path: string, body: unknown) {
  const res = await fetch(`${c.server.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${c.seeded.secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
}
/** A delivery through the source's real intake, claimed and nacked for good by the agent. */
async function deadEvent(): Promise<string> {
  const { id } = (await c.call("POST", "/owner/sources/shop/test")).body;
  const claim = await agent(`/events/${id}/claim`, {});
  const nack = await agent(`/events/${id}/nack`, { reason: "cannot parse", retry: false, lease_token: claim.lease_token });
  expect(nack.status).toBe("dead");
  return id;
}

describe("owner REST: events", () => {
  it("requeues dead events by id and by filter, ledgered as event.requeue, leaving others alone", async () => {
    const one = await deadEvent();
    const byId = await c.call("POST", "/owner/events/requeue", { event_ids: [one, "evt_unknown"] });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ requeued: [one] });
    expect((await c.entry("event.requeue"))?.subject).toBe(one);
    // Pending now: a second requeue moves nothing.
    expect((await c.call("POST", "/owner/events/requeue", { event_ids: [one] })).body).toEqual({ requeued: [] });

    const [a, b] = [await deadEvent(), await deadEvent()];
    const byFilter = await c.call("POST", "/owner/events/requeue", { status: "dead", source: "shop", type: "brynth.*" });
    expect(byFilter.body.requeued.sort()).toEqual([a, b].sort());
    expect((await c.call("POST", "/owner/events/requeue", { status: "dead" })).body).toEqual({ requeued: [] });
  });

  it("leaves Brynth's own request.resolved events out with hide_bookkeeping, as the Events screen does", async () => {
    const asked = await agent("/approvals", { action: "refund", summary: "Refund?", wait_seconds: 0 });
    await c.call("POST", `/requests/${asked.request_id}/decision`, { outcome: "approve" });
    const listed = await fetch(`${c.server.url}/api/v1/events?type=request.resolved`, { headers: { authorization: `Bearer ${c.seeded.secret}` } });
    const [resolved] = (await listed.json()).events as Array<{ id: string }>;
    const claim = await agent(`/events/${resolved.id}/claim`, {});
    expect((await agent(`/events/${resolved.id}/nack`, { reason: "x", retry: false, lease_token: claim.lease_token })).status).toBe("dead");
    const shop = await deadEvent();

    const hidden = await c.call("POST", "/owner/events/requeue", { status: "dead", hide_bookkeeping: true });
    expect(hidden.body).toEqual({ requeued: [shop] });
    expect((await c.call("POST", "/owner/events/requeue", { status: "dead" })).body).toEqual({ requeued: [resolved.id] });
    const mixed = await c.call("POST", "/owner/events/requeue", { event_ids: [shop], hide_bookkeeping: false });
    expect(namesFields(mixed.body, ["event_ids"])).toBe(true);
  });

  it("names the field of bad input", async () => {
    const none = await c.call("POST", "/owner/events/requeue", {});
    expect(none.status).toBe(400);
    expect(namesFields(none.body, ["event_ids"])).toBe(true);
    const both = await c.call("POST", "/owner/events/requeue", { event_ids: ["evt_1"], status: "dead" });
    expect(namesFields(both.body, ["event_ids"])).toBe(true);
    const bad = await c.call("POST", "/owner/events/requeue", { status: "pending", type: "a*b", event_ids: [] });
    expect(bad.status).toBe(400);
    expect(namesFields(bad.body, ["status", "type", "event_ids"])).toBe(true);
  });
});
