import { describe, expect, it } from "vitest";
import Stripe from "stripe";
import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { apiKeys } from "@/lib/db/schema/keys";
import { mailMessages } from "@/lib/db/schema/mail";
import { countEventsByStatus } from "@/lib/events/count-events-by-status";
import { eventsPerHour } from "@/lib/events/events-per-hour";
import { listEvents } from "@/lib/events/list-events";
import { countActiveKeys, listKeys } from "@/lib/keys/list-keys";
import { listOutbound } from "@/lib/mail/outbound/list-outbound";
import { needsAttention } from "@/lib/overview/needs-attention";
import { countRefusals, listRefusals } from "@/lib/sources/intake-refusals";
import { removeSource } from "@/lib/sources/remove-source";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";
import { seedEvents, seedSource } from "@/lib/testing/events";
import { seedReceivedMail } from "@/lib/testing/mail-fixture";
import { seedKey, seedProject } from "@/lib/testing/seed";

const { h, call, decide } = approvalsHarness();
const stripe = new Stripe("sk_test_unused");
const DAY = 24 * 3600_000;
const post = (url: string, payload: string, signature: string) =>
  fetch(url, { method: "POST", body: payload, headers: { "content-type": "application/json", "stripe-signature": signature } });

/** Each Overview count, next to the rows the screen its link opens would list. */
describe("needsAttention", () => {
  it("counts pending approvals, and leaves the request.resolved event of a decision out of the pending events", async () => {
    const db = await getDb();
    const actor = h.seeded.actor;
    const ask = () => call("ask_approval", { action: "refund", summary: "Refund order 7 (10 €)?", amount: 10, wait_seconds: 0 });
    const first = ok(await ask());
    ok(await ask());
    expect((await needsAttention(db, { actor })).pendingApprovals).toBe(2);

    await decide(first.request_id as string, { outcome: "approve" });
    const counts = await needsAttention(db, { actor });
    expect(counts.pendingApprovals).toBe(1);
    // The decision wrote a pending request.resolved event: bookkeeping, not counted and not listed by default.
    const all = await listEvents(db, { actor, status: "pending", limit: 100 });
    expect(all.events.map((e) => e.type)).toContain("request.resolved");
    const shown = await listEvents(db, { actor, status: "pending", limit: 100, hideBookkeeping: true });
    expect(shown.events.map((e) => e.type)).not.toContain("request.resolved");
    expect(counts.eventsPending).toBe(shown.events.length);
    expect((await countEventsByStatus(db, { projectId: actor.projectId })).pending).toBe(all.events.length);
  });

  it("counts pending and dead events as the Events tabs list them, under the Type filter too", async () => {
    const db = await getDb();
    const { actor } = await seedProject({ name: "Events counts" });
    const ids = await seedEvents(actor.projectId, [
      { type: "order.created", source: "shop" },
      { type: "order.created", source: "shop" },
      { type: "order.paid", source: "shop" },
      { type: "invoice.paid", source: "billing" },
      { type: "request.resolved" },
    ]);
    await db
      .update(events)
      .set({ status: "dead" })
      .where(inArray(events.id, [ids[1], ids[3]]));

    const counts = await needsAttention(db, { actor });
    expect(counts).toMatchObject({ eventsPending: 2, eventsDead: 2 });
    for (const status of ["pending", "dead"] as const) {
      const listed = await listEvents(db, { actor, status, limit: 100, hideBookkeeping: true });
      expect(listed.events).toHaveLength(status === "pending" ? counts.eventsPending : counts.eventsDead);
    }

    const byType = await countEventsByStatus(db, { projectId: actor.projectId, type: "order.*", hideBookkeeping: true });
    expect(byType).toMatchObject({ pending: 2, dead: 1, done: 0 });
    expect(await countEventsByStatus(db, { projectId: actor.projectId, type: "order.paid", source: "shop" })).toMatchObject({ pending: 1, dead: 0 });
    expect((await countEventsByStatus(db, { projectId: actor.projectId, type: "request.resolved" })).pending).toBe(1);

    // Done counted only up to one past a bound, as the Events tab shows "1,000+": exact below it.
    await db
      .update(events)
      .set({ status: "done" })
      .where(inArray(events.id, [ids[0], ids[2], ids[4]]));
    expect(await countEventsByStatus(db, { projectId: actor.projectId })).toMatchObject({ done: 3, dead: 2, pending: 0 });
    expect(await countEventsByStatus(db, { projectId: actor.projectId, doneUpTo: 5 })).toMatchObject({ done: 3, dead: 2 });
    expect(await countEventsByStatus(db, { projectId: actor.projectId, doneUpTo: 1 })).toMatchObject({ done: 2, dead: 2 });
    expect(await countEventsByStatus(db, { projectId: actor.projectId, hideBookkeeping: true, doneUpTo: 5 })).toMatchObject({ done: 2, dead: 2 });
    expect(await needsAttention(db, { actor })).toMatchObject({ eventsPending: 0, eventsDead: 2 });

    const hours = await eventsPerHour(db, { projectId: actor.projectId, hours: 168, type: "order.*", hideBookkeeping: true });
    expect(hours.reduce((n, p) => n + p.count, 0)).toBe(3);
    expect(new Set(hours.map((p) => p.source))).toEqual(new Set(["shop"]));
    const withBookkeeping = await eventsPerHour(db, { projectId: actor.projectId, hours: 168 });
    expect(withBookkeeping.reduce((n, p) => n + p.count, 0)).toBe(5);
  });

  it("counts failed and unknown outbound mail as the Outbound tabs list them", async () => {
    const db = await getDb();
    const { actor } = await seedProject({ name: "Outbound counts" });
    const failed = await seedReceivedMail(actor.projectId);
    const unknown = await seedReceivedMail(actor.projectId);
    // Two messages of the project turned into outbound mail in those states, as the delivery job leaves them.
    await db.update(mailMessages).set({ direction: "outbound", status: "failed" }).where(eq(mailMessages.id, failed.message));
    await db.update(mailMessages).set({ direction: "outbound", status: "unknown" }).where(eq(mailMessages.id, unknown.message));

    const counts = await needsAttention(db, { actor });
    expect(counts).toMatchObject({ outboundFailed: 1, outboundUnknown: 1 });
    expect((await listOutbound(db, { projectId: actor.projectId, status: "failed" })).items.map((m) => m.id)).toEqual([failed.message]);
    expect((await listOutbound(db, { projectId: actor.projectId, status: "unknown" })).items.map((m) => m.id)).toEqual([unknown.message]);
  });

  it("counts webhook deliveries refused over real HTTP: bad signatures and a removed source's URL, per project", async () => {
    const db = await getDb();
    const { actor } = await seedProject({ name: "Refusals" });
    const { actor: other } = await seedProject({ name: "Refusals elsewhere" });
    const secret = "whsec_refusals_test";
    const url = (await seedSource(actor, { name: "stripe-live", verification: "stripe", secret })).url!;
    const payload = JSON.stringify({ id: "evt_r1", type: "invoice.paid" });

    for (let i = 0; i < 2; i++) {
      const res = await post(url, payload, stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" }));
      expect(res.status).toBe(401);
    }
    const good = await post(url, payload, stripe.webhooks.generateTestHeaderString({ payload, secret }));
    expect(good.status).toBe(200);
    expect(await countRefusals(db, { projectId: actor.projectId, since: new Date(Date.now() - DAY) })).toBe(2);

    await db.transaction((tx) => removeSource(tx, { actor, name: "stripe-live" }));
    expect((await post(url, payload, stripe.webhooks.generateTestHeaderString({ payload, secret }))).status).toBe(404);
    // A token that never belonged to a source names no project: refused, counted nowhere.
    expect((await post(`${new URL(url).origin}/hooks/${"A".repeat(43)}`, payload, "t=1,v1=00")).status).toBe(404);

    const counts = await needsAttention(db, { actor });
    expect(counts.refusedDeliveries).toBe(3);
    const rows = await listRefusals(db, { projectId: actor.projectId, since: new Date(Date.now() - DAY) });
    expect(rows.map((r) => ({ source: r.source, reason: r.reason, count: r.count })).sort((a, b) => a.reason.localeCompare(b.reason))).toEqual([
      { source: "stripe-live", reason: "bad_signature", count: 2 },
      { source: "stripe-live", reason: "unknown_source", count: 1 },
    ]);
    expect(rows.find((r) => r.reason === "bad_signature")?.lastDetail).toMatch(/^Signature verification failed/);
    expect(await listRefusals(db, { projectId: actor.projectId, since: new Date(Date.now() - DAY), reason: "unknown_source" })).toHaveLength(1);
    expect((await needsAttention(db, { actor: other })).refusedDeliveries).toBe(0);
    // Outside the window: nothing.
    expect(await countRefusals(db, { projectId: actor.projectId, since: new Date(Date.now() + 2 * 3600_000) })).toBe(0);
  });

  it("counts live keys unused for 30 days (never used counts from creation), the rows ?unused=30 lists", async () => {
    const db = await getDb();
    const { actor, key } = await seedProject({ name: "Unused keys" });
    const stale = (await seedKey(actor.projectId, ["ledger:read"], "stale")).key;
    const usedLately = (await seedKey(actor.projectId, ["ledger:read"], "used lately")).key;
    const revoked = (await seedKey(actor.projectId, ["ledger:read"], "revoked")).key;
    const old = new Date(Date.now() - 40 * DAY);
    await db
      .update(apiKeys)
      .set({ createdAt: old })
      .where(inArray(apiKeys.id, [stale.id, usedLately.id, revoked.id]));
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 2 * DAY) })
      .where(eq(apiKeys.id, usedLately.id));
    await db.update(apiKeys).set({ revokedAt: sql`now()` }).where(eq(apiKeys.id, revoked.id));

    const counts = await needsAttention(db, { actor });
    expect(counts.unusedKeys).toBe(1);
    const since = new Date(Date.now() - 30 * DAY);
    expect((await listKeys(db, { actor, unusedSince: since })).map((k) => k.id)).toEqual([stale.id]);
    // Used 31 days ago: unused again.
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 31 * DAY) })
      .where(and(eq(apiKeys.projectId, actor.projectId), eq(apiKeys.id, usedLately.id)));
    expect((await listKeys(db, { actor, unusedSince: since })).map((k) => k.id).sort()).toEqual([stale.id, usedLately.id].sort());
    expect((await listKeys(db, { actor })).map((k) => k.id)).toContain(key.id);
    // The Overview's "Active API keys" counts what the API keys screen lists: the revoked one is not among them.
    expect(await countActiveKeys(db, { actor })).toBe((await listKeys(db, { actor })).length);
    expect((await listKeys(db, { actor })).map((k) => k.id)).not.toContain(revoked.id);
  });
});
