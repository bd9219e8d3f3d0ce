import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { appendEntry } from "@/lib/ledger/append-entry";
import { getLedgerEntry } from "@/lib/ledger/get-entry";
import { countLedgerEntries, ledgerEntriesByAgent, ledgerHeadSeq } from "@/lib/ledger/ledger-stats";
import { previousCursor } from "@/lib/ledger/previous-cursor";
import { sealProject } from "@/lib/ledger/seal-entries";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { seedProject } from "@/lib/testing/seed";
import type { Actor } from "@/lib/actor";

let actor: Actor;
let other: Actor;
/** seedProject writes project.create and key.create first. */
const SEEDED = 2;

beforeAll(async () => {
  ({ actor } = await seedProject());
  ({ actor: other } = await seedProject({ name: "Other" }));
  const db = await getDb();
  for (let i = 0; i < 23; i++) {
    await db.transaction((tx) => appendEntry(tx, { actor: { ...actor, agent: i % 3 === 0 ? "bot-a" : "bot-b" }, op: i % 2 ? "t.odd" : "t.even" }));
  }
  await sealProject(db, actor.projectId);
  await sealProject(db, other.projectId);
});

describe("ledger stats", () => {
  it("counts a project's entries, all or since a moment", async () => {
    const db = await getDb();
    expect(await countLedgerEntries(db, { actor })).toBe(SEEDED + 23);
    expect(await countLedgerEntries(db, { actor, since: new Date(Date.now() + 60_000) })).toBe(0);
    expect(await countLedgerEntries(db, { actor: other })).toBe(SEEDED);
    expect(await ledgerHeadSeq(db, { actor })).toBe(SEEDED + 23);
  });

  it("groups entries per agent, busiest first", async () => {
    const db = await getDb();
    const rows = await ledgerEntriesByAgent(db, { actor, since: new Date(0) });
    expect(rows.slice(0, 2)).toEqual([
      { agent: "bot-b", entries: 15 },
      { agent: "bot-a", entries: 8 },
    ]);
    expect(rows.reduce((n, r) => n + r.entries, 0)).toBe(SEEDED + 23);
  });

  it("finds one entry by seq within the project only", async () => {
    const db = await getDb();
    expect((await getLedgerEntry(db, { actor, seq: 3 }))?.op).toBe("t.even");
    expect(await getLedgerEntry(db, { actor: other, seq: 3 })).toBeNull();
  });
});

describe("previousCursor", () => {
  it("walks back exactly the pages that Next walked forward, with a filter", async () => {
    const db = await getDb();
    const filter = { actor, op: "t.odd", limit: 4 };
    const pages: number[][] = [];
    let cursor: number | undefined;
    for (;;) {
      const page = await queryLedger(db, { ...filter, cursor });
      pages.push(page.entries.map((e) => Number(e.seq)));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(pages.flat()).toHaveLength(11);
    expect(await previousCursor(db, { ...filter, firstSeq: pages[0][0] })).toBeUndefined();
    expect(await previousCursor(db, { ...filter, firstSeq: pages[1][0] })).toBeNull();
    for (let i = 2; i < pages.length; i++) {
      const back = await previousCursor(db, { ...filter, firstSeq: pages[i][0] });
      const again = await queryLedger(db, { ...filter, cursor: back ?? undefined });
      expect(again.entries.map((e) => Number(e.seq))).toEqual(pages[i - 1]);
    }
  });
});
