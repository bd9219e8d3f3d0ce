import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { insertEvent, type NewEvent } from "@/lib/events/insert-event";
import { eventsOf } from "@/lib/testing/events";
import { seedProject } from "@/lib/testing/seed";

let projectId: string;
beforeAll(async () => {
  projectId = (await seedProject()).project.id;
});

const event = (type: string, i: number): NewEvent => ({
  projectId,
  sourceId: null,
  source: "batch-test",
  type,
  trust: "external_untrusted",
  body: i % 2 ? { json: JSON.stringify({ i }) } : { raw: new Uint8Array([i, 0, 255]) },
  contentType: i % 2 ? "application/json" : "application/octet-stream",
  payloadSize: 8,
  headers: { "x-n": String(i) },
  dedupeKey: `d${type}${i}`,
});

describe("insertEvent outside a transaction (webhook intake)", () => {
  it("stores events sent together, JSON and raw bytes alike", async () => {
    const db = await getDb();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => insertEvent(db, event("together", i))));
    const stored = await eventsOf({ projectId }, { type: "together" });
    expect(stored.map((e) => e.id).sort()).toEqual(results.map((r) => r.id).sort());
    for (const e of stored) {
      const i = Number(e.headers["x-n"]);
      if (i % 2) expect(JSON.parse(e.payloadText!)).toEqual({ i });
      else expect([...e.raw!]).toEqual([i, 0, 255]);
    }
  });

  it("fails only the event the database refuses when it shares a statement with others", async () => {
    const db = await getDb();
    // A NUL in text is refused by Postgres; intake never sends one (read-delivery.ts strips it), this test does.
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => insertEvent(db, event(i === 4 ? "bad\0type" : "shared", i))));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 10 }, (_, i) => (i === 4 ? "rejected" : "fulfilled")));
    expect(await eventsOf({ projectId }, { type: "shared" })).toHaveLength(9);
  });
});
