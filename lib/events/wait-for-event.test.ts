import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { revokeOwnerSession, startOwnerSession } from "@/lib/owners/owner-sessions";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { events } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { revokeKey } from "@/lib/keys/revoke-key";
import { oauthGrants } from "@/lib/db/schema/oauth";
import { revokeGrant } from "@/lib/oauth/revoke-grant";
import { connect } from "@/lib/oauth/__tests__/oauth-steps";
import { seedEvents, seedSource, timeTravel } from "@/lib/testing/events";
import { mcpCall } from "@/lib/tools/events/__tests__/tool-client";

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("inbox_wait", () => {
  // No test here times the wait (on a shared machine that flakes): each asserts what came back and in which order.
  // A waiter whose timeout outlasts the test's can only return by being woken.
  it("returns a webhook delivered while it waits, without claiming it", async () => {
    const { url } = await seedSource(project.actor, { name: "wake", verification: "none" });
    const order: string[] = [];
    const waiting = mcpCall(client, "inbox_wait", { source: "wake", timeout_seconds: 120 }).then((res) => (order.push("returned"), res));
    await sleep(400);
    order.push("posted");
    const post = await fetch(url!, { method: "POST", body: JSON.stringify({ type: "ping.pong" }), headers: { "content-type": "application/json" } });
    expect(post.status).toBe(200);
    const res = await waiting;
    expect(order).toEqual(["posted", "returned"]);
    expect(res.ok && res.data.event).toMatchObject({ source: "wake", type: "ping.pong", status: "pending" });
    const still = await mcpCall(client, "inbox_list", { source: "wake" });
    expect(still.ok && still.data.events[0].status).toBe("pending");
  });

  it("returns an already pending event at once", async () => {
    const [id] = await seedEvents(project.project.id, [{ type: "ready.now", source: "ready" }]);
    // Nothing else arrives for this source: with a 120 s timeout, an answer means it did not wait.
    const res = await mcpCall(client, "inbox_wait", { source: "ready", timeout_seconds: 120 });
    expect(res.ok && res.data.event.id).toBe(id);
  });

  it("ignores events that do not match and returns the first that does", async () => {
    const order: string[] = [];
    const waiting = mcpCall(client, "inbox_wait", { type: "sought.*", timeout_seconds: 120 }).then((res) => (order.push("returned"), res));
    await sleep(300);
    await seedEvents(project.project.id, [{ type: "unsought.thing" }]);
    order.push("unmatched inserted");
    await sleep(300);
    order.push("matched inserting");
    const [id] = await seedEvents(project.project.id, [{ type: "sought.thing" }]);
    const res = await waiting;
    expect(order).toEqual(["unmatched inserted", "matched inserting", "returned"]);
    expect(res.ok && res.data.event).toMatchObject({ id, type: "sought.thing" });
  });

  it("returns {event: null} at the timeout, not when a non-matching event arrives", async () => {
    const order: string[] = [];
    const waiting = mcpCall(client, "inbox_wait", { type: "wanted.*", timeout_seconds: 2 }).then((res) => (order.push("returned"), res));
    await sleep(300);
    await seedEvents(project.project.id, [{ type: "unwanted.thing" }]);
    order.push("unmatched inserted");
    const res = await waiting;
    expect(res).toEqual({ ok: true, data: { event: null } });
    expect(order).toEqual(["unmatched inserted", "returned"]);
  });

  it("wakes when a lease runs out, without any notification", async () => {
    const [id] = await seedEvents(project.project.id, [{ type: "lease.expiry", source: "leases" }]);
    expect((await mcpCall(client, "inbox_claim", { event_id: id })).ok).toBe(true);
    await timeTravel(id, "lease", 1.5);
    // Status is read through the database clock, so `pending` shows the lease had run out when it returned; the
    // 120 s timeout shows the lease's own timer woke it.
    const res = await mcpCall(client, "inbox_wait", { source: "leases", timeout_seconds: 120 });
    expect(res.ok && res.data.event).toMatchObject({ id, status: "pending", attempts: 1 });
  });

  it.runIf(/^postgres/.test(process.env.DATABASE_URL ?? ""))(
    "looks again when its LISTEN connection is re-established, so an event whose notification was lost is returned",
    async () => {
      // The 120 s timeout outlasts the test's: only a wake-up can end this wait in time.
      const waiting = mcpCall(client, "inbox_wait", { source: "relisten", timeout_seconds: 120 });
      await sleep(400);
      // Written without a notification, as one told while the LISTEN connection was down is lost.
      const db = await getDb();
      const id = `evt_relisten${Date.now()}`;
      const now = new Date();
      await db.insert(events).values({
        id,
        projectId: project.project.id,
        source: "relisten",
        type: "lost.notice",
        trust: "brynth",
        payload: {},
        payloadSize: 2,
        headers: {},
        receivedAt: now,
        availableAt: now,
      });
      // The connection drops; the driver re-LISTENs on a new one. Before the fix the waiter slept on to its timeout.
      await query(
        db,
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
      );
      const res = await waiting;
      expect(res.ok && res.data.event).toMatchObject({ id, source: "relisten" });
    },
  );

  it("stops waiting when the client goes away", async () => {
    const db = await getDb();
    const count = async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.projectId, project.project.id), eq(ledgerEntries.op, "inbox.wait")))
      )[0].n;
    const before = await count();
    const controller = new AbortController();
    const req = fetch(`${server.url}/api/v1/events/wait?source=nobody&timeout_seconds=60`, {
      headers: { authorization: `Bearer ${project.secret}` },
      signal: controller.signal,
    }).catch(() => null);
    await sleep(300);
    controller.abort();
    await req;
    const deadline = Date.now() + 3000;
    while ((await count()) === before && Date.now() < deadline) await sleep(50);
    expect(await count()).toBe(before + 1);
  });

  it("stops waiting when its key is revoked and answers unauthorized, telling it nothing that arrived after", async () => {
    const waiter = await seedKey(project.project.id, ["inbox:read"], "waiter");
    const waiting = fetch(`${server.url}/api/v1/events/wait?source=after-revoke&timeout_seconds=30`, {
      headers: { authorization: `Bearer ${waiter.secret}` },
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    await sleep(300);
    await (await getDb()).transaction((tx) => revokeKey(tx, { actor: project.actor, keyId: waiter.key.id }));
    await seedEvents(project.project.id, [{ type: "payroll.updated", source: "after-revoke", payload: { ssn: "123-45-6789" } }]);
    // Before: the wait went on and answered this event, though the key had been revoked before it arrived.
    const answer = await waiting;
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "unauthorized", message: "This key was revoked while the call waited." } } });
    expect(JSON.stringify(answer.body)).not.toContain("123-45-6789");
  });

  it("stops waiting when the OAuth grant it came with is revoked, as a key's wait does", async () => {
    const { tokens } = await connect(server.url, { projectId: project.project.id, scopes: ["inbox:read"] });
    const app = (await connectMcp(server.url, tokens.access_token)).client;
    const [grant] = await (await getDb()).select().from(oauthGrants).where(eq(oauthGrants.projectId, project.project.id));
    const waiting = mcpCall(app, "inbox_wait", { source: "after-grant-revoke", timeout_seconds: 30 });
    await sleep(300);
    await (await getDb()).transaction((tx) => revokeGrant(tx, { projectId: project.project.id, grantId: grant.id }));
    await seedEvents(project.project.id, [{ type: "payroll.updated", source: "after-grant-revoke", payload: { ssn: "987-65-4321" } }]);
    // Before: the wait watched for a revoked *key* of the grant's id, found none, and answered this event.
    const answer = await waiting;
    expect(answer).toMatchObject({ ok: false, code: "unauthorized", message: "This OAuth grant was revoked while the call waited." });
    expect(JSON.stringify(answer)).not.toContain("987-65-4321");
    await app.close().catch(() => {});
  });

  it("stops waiting when the owner's dashboard session it came with ends, as a stream of that session closes", async () => {
    const db = await getDb();
    const session = await startOwnerSession(db, { ownerId: project.owner.id });
    const cookie = `next-auth.session-token=${await encode({ token: { sid: session.id }, secret: nextAuthSecret() })}`;
    const headers = { cookie, "x-brynth-project": project.project.id };
    const waiting = fetch(`${server.url}/api/v1/events/wait?source=after-signout&timeout_seconds=30`, { headers }).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await sleep(300);
    // Settings → Sessions → End (a sign-out or a password change from another browser ends it alike).
    expect(await revokeOwnerSession(db, { ownerId: project.owner.id, sessionId: session.id })).toBe(true);
    await seedEvents(project.project.id, [{ type: "payroll.updated", source: "after-signout", payload: { ssn: "555-12-3456" } }]);
    // Before: the wait went on and answered the event that came after the session ended.
    const answer = await waiting;
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "unauthorized", message: "This session ended while the call waited." } } });
    expect(JSON.stringify(answer.body)).not.toContain("555-12-3456");
  });

  it("refuses timeouts outside 1–120 s", async () => {
    for (const timeout_seconds of [0, 121]) {
      const res = await mcpCall(client, "inbox_wait", { timeout_seconds });
      expect(res).toMatchObject({ ok: false, code: "validation_error" });
    }
  });
});
