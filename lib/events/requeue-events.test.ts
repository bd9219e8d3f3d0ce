import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { eventAttempts } from "@/lib/db/schema/events";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { claimEvent } from "@/lib/events/claim-event";
import { countEventsByStatus } from "@/lib/events/count-events-by-status";
import { emitEvent } from "@/lib/events/emit-event";
import { eventsPerHour } from "@/lib/events/events-per-hour";
import { getEventDetail } from "@/lib/events/get-event-detail";
import { nackEvent } from "@/lib/events/nack-event";
import { requeueEvents } from "@/lib/events/requeue-events";
import { ackEvent } from "@/lib/events/ack-event";
import { seedProject } from "@/lib/testing/seed";
import { eventsOf, seedEvents, timeTravel } from "@/lib/testing/events";

let p: Awaited<ReturnType<typeof seedProject>>;
const agent = () => ({ ...p.actor, type: "key" as const, keyId: p.key.id, agent: "worker-1" });

beforeAll(async () => {
  p = await seedProject();
});

async function inTx<T>(fn: (tx: Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0]) => Promise<T>) {
  return (await getDb()).transaction(fn);
}

describe("requeue, counts and claim history", () => {
  it("counts events per status as callers see them, expired leases included", async () => {
    const [pending, claimed, expired, done, dead] = await seedEvents(
      p.project.id,
      ["a", "b", "c", "d", "e"].map((t) => ({ type: `count.${t}` })),
    );
    await inTx((tx) => claimEvent(tx, { actor: agent(), eventId: claimed, leaseSeconds: 60 }));
    await inTx((tx) => claimEvent(tx, { actor: agent(), eventId: expired, leaseSeconds: 60 }));
    await timeTravel(expired, "lease");
    await inTx((tx) => claimEvent(tx, { actor: agent(), eventId: done, leaseSeconds: 60 }));
    await inTx((tx) => ackEvent(tx, { actor: agent(), eventId: done }));
    await inTx((tx) => claimEvent(tx, { actor: agent(), eventId: dead, leaseSeconds: 60 }));
    await inTx((tx) => nackEvent(tx, { actor: agent(), eventId: dead, reason: "bad", retry: false }));
    expect(pending).toBeTruthy();
    expect(await countEventsByStatus(await getDb(), { projectId: p.project.id })).toEqual({ pending: 2, claimed: 1, done: 1, failed: 0, dead: 1 });
  });

  it("requeues dead and failed events (one or by filter) with fresh attempts, ledgering nothing itself", async () => {
    const ids = await seedEvents(
      p.project.id,
      Array.from({ length: 4 }, () => ({ type: "requeue.me" })),
    );
    for (const id of ids) {
      await inTx((tx) => claimEvent(tx, { actor: agent(), eventId: id, leaseSeconds: 60 }));
      await inTx((tx) => nackEvent(tx, { actor: agent(), eventId: id, reason: `failed ${id}`, retry: id !== ids[0] }));
    }
    const one = await inTx((tx) => requeueEvents(tx, { actor: p.actor, eventIds: [ids[0], ids[1]] }));
    expect(one.requeued.sort()).toEqual([ids[0], ids[1]].sort());
    const bulk = await inTx((tx) => requeueEvents(tx, { actor: p.actor, filter: { status: "failed", type: "requeue.*" } }));
    expect(bulk.requeued.sort()).toEqual([ids[2], ids[3]].sort());
    const after = await eventsOf(p.actor, { type: "requeue.me" });
    expect(after.map((e) => [e.status, e.attempts])).toEqual(ids.map(() => ["pending", 0]));
    expect((await inTx((tx) => requeueEvents(tx, { actor: p.actor, eventIds: ids }))).requeued).toEqual([]);
    const entries = await (await getDb())
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, p.project.id), eq(ledgerEntries.op, "event.requeue")));
    // The owner action that calls it writes the entry (ARCHITECTURE §5a): a domain function writes none.
    expect(entries.length).toBe(0);
  });

  it("keeps the claim history with nack reasons and expired leases", async () => {
    const [id] = await seedEvents(p.project.id, [{ type: "history.one" }]);
    await inTx((tx) => claimEvent(tx, { actor: agent(), eventId: id, leaseSeconds: 60 }));
    await inTx((tx) => nackEvent(tx, { actor: agent(), eventId: id, reason: "upstream 503", retry: true }));
    await timeTravel(id, "retry");
    await inTx((tx) => claimEvent(tx, { actor: agent(), eventId: id, leaseSeconds: 60 }));
    await timeTravel(id, "lease");
    const worker2 = { ...agent(), agent: "worker-2" };
    await inTx((tx) => claimEvent(tx, { actor: worker2, eventId: id, leaseSeconds: 60 }));
    await inTx((tx) => ackEvent(tx, { actor: worker2, eventId: id, result: { ok: true } }));
    const { event, attempts } = await getEventDetail(await getDb(), { actor: p.actor, eventId: id });
    expect(event).toMatchObject({ status: "done", result: { ok: true }, attempts: 3 });
    expect(attempts.map((a) => [a.attempt, a.agent, a.outcome, a.reason])).toEqual([
      [1, "worker-1", "nacked", "upstream 503"],
      [2, "worker-1", "expired", null],
      [3, "worker-2", "acked", null],
    ]);
    const rows = await (await getDb()).select().from(eventAttempts).where(eq(eventAttempts.eventId, id));
    expect(rows.every((r) => r.projectId === p.project.id)).toBe(true);
  });

  it("emits Brynth's own events idempotently with a dedupe key", async () => {
    const db = await getDb();
    const first = await db.transaction((tx) =>
      emitEvent(tx, { projectId: p.project.id, type: "request.resolved", payload: { id: "req_1" }, dedupeKey: "req_1" }),
    );
    const again = await db.transaction((tx) =>
      emitEvent(tx, { projectId: p.project.id, type: "request.resolved", payload: { id: "req_1" }, dedupeKey: "req_1" }),
    );
    expect(again).toEqual({ id: first.id, duplicate: true });
    const [e] = await eventsOf(p.actor, { type: "request.resolved" });
    expect(e).toMatchObject({ source: "brynth", trust: "brynth", status: "pending" });
  });

  it("counts events per hour and source for the chart", async () => {
    const fresh = await seedProject({ name: "chart" });
    await seedEvents(fresh.project.id, [
      { type: "a", source: "s1" },
      { type: "b", source: "s1" },
      { type: "c", source: "s2" },
    ]);
    const points = await eventsPerHour(await getDb(), { projectId: fresh.project.id, hours: 24 });
    expect(points.map((p) => [p.source, p.count])).toEqual([
      ["s1", 2],
      ["s2", 1],
    ]);
    expect(points[0].hour).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00Z$/);
  });
});
