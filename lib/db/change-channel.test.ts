import { describe, expect, it } from "vitest";
import { z } from "zod";
import { changeChannel } from "@/lib/db/change-channel";
import { listen } from "@/lib/db/notify";
import { getDb } from "@/lib/db/client";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("change channel", () => {
  it("gathers the changes only watchers care about over the channel's delay into one notification, every item delivered once", async () => {
    const channel = changeChannel("test_announce", z.object({ n: z.number() }), { gatherMs: (c) => (c.n === 30 ? 10 : 1000) });
    const db = await getDb();
    const payloads: string[] = [];
    const stop = await listen("test_announce", (p) => payloads.push(p));
    const seen: number[] = [];
    const unsubscribe = await channel.subscribe((c) => seen.push(c.n));
    try {
      // Three bursts 100 ms apart, all inside one 1 s window: one NOTIFY, not one per burst.
      for (let burst = 0; burst < 3; burst++) {
        for (let i = 0; i < 10; i++) channel.notify(db, { n: burst * 10 + i });
        await sleep(100);
      }
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(30);
      expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i));
      expect(payloads).toHaveLength(1);

      // A later announcement opens a new window.
      channel.notify(db, { n: 30 });
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(31);
      expect(payloads).toHaveLength(2);
    } finally {
      stop();
      unsubscribe();
    }
  });

  it("keeps the order changes were told in, across notifications that overlap (one flush at a time)", async () => {
    const channel = changeChannel("test_order", z.object({ n: z.number() }));
    const seen: number[] = [];
    const unsubscribe = await channel.subscribe((c) => seen.push(c.n));
    try {
      const db = await getDb();
      // Each change told while the previous NOTIFY may still be on its way: on parallel connections they would race.
      for (let n = 0; n < 150; n++) {
        channel.notify(db, { n });
        await sleep(n % 3);
      }
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(150);
      expect(seen).toEqual(Array.from({ length: 150 }, (_, n) => n));
    } finally {
      unsubscribe();
    }
  });

  it("sends a held change before a change told at once after it (a claim, then a release)", async () => {
    const channel = changeChannel("test_overtake", z.object({ n: z.number() }), { gatherMs: (c) => (c.n === 1 ? 60_000 : 0) });
    const seen: number[] = [];
    const unsubscribe = await channel.subscribe((c) => seen.push(c.n));
    try {
      const db = await getDb();
      channel.notify(db, { n: 1 });
      channel.notify(db, { n: 2 });
      await expect.poll(() => seen, { timeout: 5000 }).toEqual([1, 2]);
    } finally {
      unsubscribe();
    }
  });

  it("splits notifications by their size in bytes: items of non-ASCII text under the limit in characters still arrive", async () => {
    // An event type of 200 CJK characters is 600 bytes of UTF-8. Chunked by characters, 20 such changes made one
    // 12 KB payload, which pg_notify refused (8000 bytes at most): the round was lost and inbox_wait slept on.
    const channel = changeChannel("test_bytes", z.object({ n: z.number(), type: z.string() }));
    const seen: number[] = [];
    const unsubscribe = await channel.subscribe((c) => seen.push(c.n));
    try {
      const db = await getDb();
      for (let n = 0; n < 20; n++) channel.notify(db, { n, type: "請求書".repeat(66) });
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(20);
      expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => n));
    } finally {
      unsubscribe();
    }
  });

  it("leaves out an item too large for any notification, and delivers the rest of its round", async () => {
    // A client's `notifications/cancelled` names any request id it likes, and a miss is passed on to the other
    // instances: one of 10 KB made the round's single statement fail, losing every change told with it.
    const big = changeChannel("test_oversize", z.object({ request: z.string() }));
    const small = changeChannel("test_beside", z.object({ n: z.number() }));
    const seen: number[] = [];
    const unsubscribe = await small.subscribe((c) => seen.push(c.n));
    try {
      const db = await getDb();
      big.notify(db, { request: "x".repeat(10_000) });
      small.notify(db, { n: 1 });
      await expect.poll(() => seen, { timeout: 5000 }).toEqual([1]);
    } finally {
      unsubscribe();
    }
  });

  it("delivers a round of more notifications than one SELECT may hold (1664), and the changes told with it", async () => {
    // A 4 KB item fills a notification alone: 2,000 of them in one round made a single statement of 2,000 pg_notify
    // calls, which Postgres refused ("target lists can have at most 1664 entries"), losing the whole round.
    const big = changeChannel("test_many", z.object({ n: z.number(), pad: z.string() }));
    const small = changeChannel("test_many_beside", z.object({ n: z.number() }));
    const seen: number[] = [];
    const beside: number[] = [];
    const unsubscribe = await big.subscribe((c) => seen.push(c.n));
    const unsubscribeBeside = await small.subscribe((c) => beside.push(c.n));
    try {
      const db = await getDb();
      for (let n = 0; n < 2000; n++) big.notify(db, { n, pad: "x".repeat(4000) });
      small.notify(db, { n: 1 });
      await expect.poll(() => seen.length, { timeout: 20_000 }).toBe(2000);
      expect(seen).toEqual(Array.from({ length: 2000 }, (_, n) => n));
      await expect.poll(() => beside, { timeout: 5000 }).toEqual([1]);
    } finally {
      unsubscribe();
      unsubscribeBeside();
    }
  });

  it("tells a change made in a transaction only once it has committed, and never one that rolled back", async () => {
    const channel = changeChannel("test_commit", z.object({ n: z.number() }));
    const seen: number[] = [];
    const unsubscribe = await channel.subscribe((c) => seen.push(c.n));
    try {
      const db = await getDb();
      await expect(
        db.transaction(async (tx) => {
          channel.notify(tx, { n: 1 });
          throw new Error("undo");
        }),
      ).rejects.toThrow("undo");
      await db.transaction(async (tx) => {
        channel.notify(tx, { n: 2 });
        await sleep(50);
        expect(seen).toEqual([]); // not while the transaction is open
      });
      await expect.poll(() => seen, { timeout: 5000 }).toEqual([2]);
    } finally {
      unsubscribe();
    }
  });
});
