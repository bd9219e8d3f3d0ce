import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { seedEvents, timeTravel } from "@/lib/testing/events";
import { mcpCall, restCall } from "@/lib/tools/events/__tests__/tool-client";

let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;
let client: Client;

beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject();
  client = (await connectMcp(server.url, project.secret)).client;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const emit = (type: string, payload: unknown = { n: 1 }, source?: string) => seedEvents(project.project.id, [{ type, payload, source }]).then((ids) => ids[0]);

describe("inbox_list", () => {
  it("lists pending events oldest first with envelope, trust and filters by source and type prefix", async () => {
    const a = await emit("invoice.paid", { amount: 1 }, "billing");
    const b = await emit("invoice.voided", { amount: 2 }, "billing");
    const c = await emit("request.resolved", { ok: true });
    const all = await mcpCall(client, "inbox_list", { limit: 100 });
    expect(all.ok && all.data.events.map((e: { id: string }) => e.id)).toEqual([a, b, c]);
    const first = all.ok && all.data.events[0];
    expect(first).toMatchObject({
      id: a,
      source: "billing",
      type: "invoice.paid",
      status: "pending",
      payload: { amount: 1 },
      payload_encoding: "json",
      payload_truncated: false,
      attempts: 0,
    });
    const brynth = all.ok && all.data.events[2];
    expect(brynth).toMatchObject({ source: "brynth", trust: "brynth" });
    const prefix = await restCall(server.url, project.secret, "GET", "/events?type=invoice.*&source=billing");
    expect(prefix.body.events.map((e: { id: string }) => e.id)).toEqual([a, b]);
    const exact = await restCall(server.url, project.secret, "GET", "/events?type=invoice.paid");
    expect(exact.body.events.map((e: { id: string }) => e.id)).toEqual([a]);
  });

  it("pages with next_cursor and filters by since", async () => {
    const p = await seedProject({ name: "paging" });
    const ids = await seedEvents(
      p.project.id,
      Array.from({ length: 5 }, (_, i) => ({ type: `t.${i}` })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await restCall(server.url, p.secret, "GET", `/events?limit=2${q}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.events.map((e: { id: string }) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    // Each event exactly once (events received in the same millisecond are ordered by id, not by insertion).
    expect([...seen].sort()).toEqual([...ids].sort());
    const future = await restCall(server.url, p.secret, "GET", `/events?since=${new Date(Date.now() + 60_000).toISOString()}`);
    expect(future.body.events).toEqual([]);
  });

  it("truncates payloads over 8 KB and keeps 8 KB ones", async () => {
    const small = await emit("size.small", { s: "a".repeat(8 * 1024 - 8) }); // {"s":"…"} is exactly 8192 bytes
    const large = await emit("size.large", { s: "a".repeat(8 * 1024) });
    const res = await mcpCall(client, "inbox_list", { type: "size.*" });
    const [s, l] = res.ok ? res.data.events : [];
    expect(s).toMatchObject({ id: small, payload_size: 8192, payload_truncated: false });
    expect(l).toMatchObject({ id: large, payload: null, payload_truncated: true, payload_size: 8 * 1024 + 8 });
  });

  it("refuses bad filters with validation_error naming the field", async () => {
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const [q, field] of [
      ["since=yesterday", "since"],
      ["since=2026-13-45T00:00:00Z", "since"],
      ["status=sleeping", "status"],
      ["limit=101", "limit"],
      ["type=in*voice", "type"],
      ["cursor=garbage", "cursor"],
      // Shaped like an issued cursor, holding what the query cannot read: each answered 500.
      [`cursor=${forged(["2026-01-01T00:00:00Z", "evt_\u0000"])}`, "cursor"],
      [`cursor=${forged(["0000-01-01T00:00:00Z", "evt_x"])}`, "cursor"],
      ["since=0000-06-01", "since"],
      ["source=a%00b", "source"],
    ]) {
      const res = await restCall(server.url, project.secret, "GET", `/events?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.message, q).toContain(`${field}:`);
    }
  });

  it("refuses a cursor made by hand, returned for other filters or to another project, naming the field", async () => {
    const p = await seedProject({ name: "cursor binding" });
    await seedEvents(
      p.project.id,
      Array.from({ length: 3 }, (_, i) => ({ type: `c.${i}` })),
    );
    const first = await restCall(server.url, p.secret, "GET", "/events?limit=1");
    const cursor = encodeURIComponent(first.body.next_cursor);
    expect((await restCall(server.url, p.secret, "GET", `/events?limit=1&cursor=${cursor}`)).status).toBe(200);
    const last = first.body.events[0];
    const handMade = Buffer.from(JSON.stringify([last.received_at, last.id])).toString("base64url");
    for (const [secret, q] of [
      [p.secret, `limit=1&cursor=${handMade}`],
      [p.secret, `limit=1&status=done&cursor=${cursor}`],
      [p.secret, `limit=1&type=c.*&cursor=${cursor}`],
      [project.secret, `limit=1&cursor=${cursor}`],
    ]) {
      const res = await restCall(server.url, secret, "GET", `/events?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatchObject({ code: "validation_error", details: [{ field: "cursor" }] });
    }
  });
});

describe("inbox_claim / inbox_ack / inbox_nack", () => {
  it("claims with a lease, returns the full envelope, acks idempotently with a result", async () => {
    const id = await emit("order.created", { order: 42 });
    const asked = Date.now();
    const claim = await mcpCall(client, "inbox_claim", { event_id: id, lease_seconds: 60 });
    const answered = Date.now();
    expect(claim.ok).toBe(true);
    if (!claim.ok) return;
    expect(claim.data).toMatchObject({ id, status: "claimed", attempts: 1, payload: { order: 42 }, payload_url: null });
    expect(claim.data.lease_token).toMatch(/^lse_/);
    // 60 s from the claim, which lies between the two readings of the clock.
    const lease = new Date(claim.data.lease_expires_at).getTime();
    expect(lease).toBeGreaterThanOrEqual(asked + 60_000);
    expect(lease).toBeLessThanOrEqual(answered + 60_000);
    const listed = await mcpCall(client, "inbox_list", { status: "claimed" });
    expect(listed.ok && listed.data.events.map((e: { id: string }) => e.id)).toContain(id);

    // Over REST the MCP session's claim is settled by its token (without one, only the claiming session may ack).
    const ack = await restCall(server.url, project.secret, "POST", `/events/${id}/ack`, { result: { refunded: true }, lease_token: claim.data.lease_token });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ event_id: id, status: "done", repeated: false });
    const again = await mcpCall(client, "inbox_ack", { event_id: id, result: "again" });
    expect(again).toMatchObject({ ok: true, data: { status: "done", repeated: true } });
    const done = await mcpCall(client, "inbox_list", { status: "done", type: "order.created" });
    expect(done.ok && done.data.events[0]).toMatchObject({ id, status: "done" });
  });

  it("refuses a second claim of a claimed event with CONFLICT, saying who holds it until when", async () => {
    const id = await emit("order.dup");
    const first = await mcpCall(client, "inbox_claim", { event_id: id });
    if (!first.ok) throw new Error(first.message);
    const second = await restCall(server.url, project.secret, "POST", `/events/${id}/claim`, {});
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({
      code: "CONFLICT",
      message: `Event ${id} is already claimed until ${first.data.lease_expires_at}.`,
      fix: expect.stringContaining("This key holds the lease"),
    });
  });

  it("refuses leases outside 30–3600 s", async () => {
    const id = await emit("order.lease");
    for (const lease_seconds of [29, 3601, 0, 12.5]) {
      const res = await mcpCall(client, "inbox_claim", { event_id: id, lease_seconds });
      expect(res, String(lease_seconds)).toMatchObject({ ok: false, code: "validation_error" });
      expect(!res.ok && res.message).toContain("lease_seconds:");
    }
  });

  it("answers NOT_FOUND for an event of another project and for an unknown id", async () => {
    const other = await seedProject({ name: "other" });
    const [theirs] = await seedEvents(other.project.id, [{ type: "secret.stuff" }]);
    const res = await mcpCall(client, "inbox_claim", { event_id: theirs });
    expect(res).toMatchObject({ ok: false, code: "NOT_FOUND" });
    const rest = await restCall(server.url, project.secret, "POST", `/events/${theirs}/ack`, {});
    expect(rest.status).toBe(404);
    expect((await mcpCall(client, "inbox_claim", { event_id: "evt_doesnotexist" })).ok).toBe(false);
    expect(await mcpCall(client, "inbox_claim", { event_id: "not-an-id" })).toMatchObject({ code: "validation_error" });
  });

  it("refuses the ack of an unclaimed event (NOT_CLAIMED) and a result over 4 KB (validation_error)", async () => {
    const id = await emit("order.unclaimed");
    const res = await restCall(server.url, project.secret, "POST", `/events/${id}/ack`, {});
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("NOT_CLAIMED");
    await mcpCall(client, "inbox_claim", { event_id: id });
    const big = await mcpCall(client, "inbox_ack", { event_id: id, result: "x".repeat(4095) });
    expect(big).toMatchObject({ ok: false, code: "validation_error" });
    expect(!big.ok && big.message).toContain("result:");
    expect((await mcpCall(client, "inbox_ack", { event_id: id, result: { note: "fits" } })).ok).toBe(true);
  });

  it("only lets the lease holder ack: another key gets LEASE_LOST, and so does the first holder after expiry and re-claim", async () => {
    const id = await emit("order.lease-holder");
    const other = await seedKey(project.project.id, ["inbox:read", "inbox:write"], "second agent");
    const first = await restCall(server.url, project.secret, "POST", `/events/${id}/claim`, { lease_seconds: 30 });
    expect(first.status).toBe(200);
    const stranger = await restCall(server.url, other.secret, "POST", `/events/${id}/ack`, {});
    expect(stranger.status).toBe(409);
    expect(stranger.body.error.code).toBe("LEASE_LOST");

    await timeTravel(id, "lease");
    const pending = await mcpCall(client, "inbox_list", { type: "order.lease-holder" });
    expect(pending.ok && pending.data.events[0]).toMatchObject({ id, status: "pending" });
    const second = await restCall(server.url, other.secret, "POST", `/events/${id}/claim`, {});
    expect(second.status).toBe(200);
    expect(second.body.attempts).toBe(2);
    const late = await restCall(server.url, project.secret, "POST", `/events/${id}/ack`, {});
    expect(late.body.error.code).toBe("LEASE_LOST");
    const stale = await restCall(server.url, other.secret, "POST", `/events/${id}/ack`, { lease_token: first.body.lease_token });
    expect(stale.body.error.code).toBe("LEASE_LOST");
    const ok = await restCall(server.url, other.secret, "POST", `/events/${id}/ack`, { lease_token: second.body.lease_token });
    expect(ok.status).toBe(200);
  });

  it("lets the holder ack after its lease ran out as long as nobody re-claimed", async () => {
    const id = await emit("order.slow");
    await mcpCall(client, "inbox_claim", { event_id: id, lease_seconds: 30 });
    await timeTravel(id, "lease");
    expect((await mcpCall(client, "inbox_ack", { event_id: id })).ok).toBe(true);
  });

  it("nacks with a growing delay, goes dead after 5 attempts, and cuts the reason to 1 KB", async () => {
    const id = await emit("order.flaky");
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await mcpCall(client, "inbox_claim", { event_id: id })).ok, `claim ${attempt}`).toBe(true);
      const nack = await mcpCall(client, "inbox_nack", { event_id: id, reason: `boom ${attempt} ${"é".repeat(600)}` });
      expect(nack.ok).toBe(true);
      if (!nack.ok) return;
      expect(nack.data.attempts).toBe(attempt);
      if (attempt < 5) {
        expect(nack.data.status).toBe("failed");
        delays.push(Math.round((new Date(nack.data.retry_at).getTime() - Date.now()) / 1000));
        const early = await mcpCall(client, "inbox_claim", { event_id: id });
        expect(early).toMatchObject({ ok: false, code: "CONFLICT" });
        const failed = await mcpCall(client, "inbox_list", { status: "failed", type: "order.flaky" });
        expect(failed.ok && failed.data.events[0].retry_at).toBe(nack.data.retry_at);
        await timeTravel(id, "retry");
      } else {
        expect(nack.data).toMatchObject({ status: "dead", retry_at: null });
      }
    }
    expect(delays.map((d) => Math.round(d / 10) * 10)).toEqual([30, 60, 120, 240]);
    const dead = await mcpCall(client, "inbox_list", { status: "dead", type: "order.flaky" });
    const event = dead.ok && dead.data.events[0];
    expect(Buffer.byteLength(event.last_error)).toBeLessThanOrEqual(1024);
    expect(event.last_error).toMatch(/^boom 5 é+$/);
    expect(await mcpCall(client, "inbox_claim", { event_id: id })).toMatchObject({ ok: false, code: "CONFLICT" });
  });

  it("sends an event to dead at once with retry: false; a repeated nack is NOT_CLAIMED", async () => {
    const id = await emit("order.poison");
    const claim = await mcpCall(client, "inbox_claim", { event_id: id });
    const lease_token = claim.ok && claim.data.lease_token;
    const res = await restCall(server.url, project.secret, "POST", `/events/${id}/nack`, { reason: "malformed", retry: false, lease_token });
    expect(res.body).toMatchObject({ status: "dead", attempts: 1, retry_at: null });
    const again = await restCall(server.url, project.secret, "POST", `/events/${id}/nack`, { reason: "again" });
    expect(again.body.error.code).toBe("NOT_CLAIMED");
  });

  it("treats a lease that ran out on the last attempt as dead", async () => {
    const id = await emit("order.crashy");
    for (let i = 0; i < 5; i++) {
      expect((await mcpCall(client, "inbox_claim", { event_id: id })).ok).toBe(true);
      await timeTravel(id, "lease");
    }
    const dead = await mcpCall(client, "inbox_list", { status: "dead", type: "order.crashy" });
    expect(dead.ok && dead.data.events.map((e: { id: string }) => e.id)).toEqual([id]);
    const again = await mcpCall(client, "inbox_claim", { event_id: id });
    expect(again).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(!again.ok && again.message).toContain("is dead: its attempts are used up");
  });

  it("hands out a signed URL valid one hour for large payloads and serves the exact bytes", async () => {
    const payload = { blob: "z".repeat(100 * 1024) };
    const id = await emit("file.big", payload);
    const asked = Date.now();
    const claim = await mcpCall(client, "inbox_claim", { event_id: id });
    const answered = Date.now();
    if (!claim.ok) throw new Error(claim.message);
    expect(claim.data).toMatchObject({ payload: null, payload_truncated: true });
    // An hour from the claim, which lies between the two readings of the clock (to the second: URLs sign seconds).
    const expires = new Date(claim.data.payload_url_expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000 + 3600_000);
    expect(expires).toBeLessThanOrEqual(answered + 3600_000);
    const res = await fetch(claim.data.payload_url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("attachment");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.json()).toEqual(payload);
    const forged = claim.data.payload_url.replace(/sig=[^&]+/, "sig=AAAA");
    expect((await fetch(forged)).status).toBe(403);
    const otherEvent = claim.data.payload_url.replace(id, await emit("file.other"));
    expect((await fetch(otherEvent)).status).toBe(403);
    const expired = new URL(claim.data.payload_url);
    expired.searchParams.set("expires", String(Math.floor(Date.now() / 1000) - 1));
    expect((await fetch(expired)).status).toBe(403);
  });

  it("inlines payloads up to 64 KB in the claim, with a URL once over 8 KB", async () => {
    const id = await emit("file.medium", { blob: "m".repeat(20 * 1024) });
    const claim = await mcpCall(client, "inbox_claim", { event_id: id });
    expect(claim.ok && claim.data.payload.blob.length).toBe(20 * 1024);
    expect(claim.ok && claim.data.payload_url).toMatch(/^http/);
  });
});

describe("trust of webhook events", () => {
  it("marks events of a `verification: none` source `verified: false` in list, wait and claim, still `external_untrusted`; signed ones are `verified: true`", async () => {
    const open = await mcpCall(client, "source_add", { type: "webhook", name: "open-hook" });
    const signed = await mcpCall(client, "source_add", { type: "webhook", name: "signed-hook", verification: "github", secret: "gh-secret-trust" });
    if (!open.ok || !signed.ok) throw new Error("source_add failed");
    const body = JSON.stringify({ type: "thing.happened" });
    const plain = await fetch(open.data.url, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(plain.status).toBe(200);
    const sig = `sha256=${createHmac("sha256", "gh-secret-trust").update(body).digest("hex")}`;
    const headers = { "content-type": "application/json", "x-hub-signature-256": sig, "x-github-event": "push" };
    expect((await fetch(signed.data.url, { method: "POST", headers, body })).status).toBe(200);

    const listed = await mcpCall(client, "inbox_list", { source: "open-hook" });
    expect(listed.ok && listed.data.events).toMatchObject([{ source: "open-hook", trust: "external_untrusted", verified: false }]);
    const rest = await restCall(server.url, project.secret, "GET", "/events?source=open-hook");
    expect(rest.body.events).toMatchObject([{ trust: "external_untrusted", verified: false }]);
    const waited = await mcpCall(client, "inbox_wait", { source: "open-hook", timeout_seconds: 1 });
    expect(waited.ok && waited.data.event).toMatchObject({ trust: "external_untrusted", verified: false });
    const id = listed.ok && listed.data.events[0].id;
    const claim = await mcpCall(client, "inbox_claim", { event_id: id });
    expect(claim.ok && claim.data).toMatchObject({ id, trust: "external_untrusted", verified: false });

    const verified = await mcpCall(client, "inbox_list", { source: "signed-hook" });
    expect(verified.ok && verified.data.events).toMatchObject([{ source: "signed-hook", trust: "external_untrusted", verified: true }]);
  });
});
