import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { appendEntry } from "@/lib/ledger/append-entry";
import { getLedgerEntry } from "@/lib/ledger/get-entry";
import { countLedgerEntries, ledgerEntriesByKey, ledgerHeadSeq } from "@/lib/ledger/ledger-stats";
import { previousCursor } from "@/lib/ledger/previous-cursor";
import { sealProject } from "@/lib/ledger/seal-entries";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { seedKey, seedProject } from "@/lib/testing/seed";
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

  it("groups entries per principal, not per agent label, busiest first", async () => {
    const db = await getDb();
    const { actor: owner, key } = await seedProject({ name: "Per key" });
    const second = await seedKey(owner.projectId, ["ledger:read"], "second key");
    const asKey = (id: string, agent: string): Actor => ({ ...owner, type: "key", id, keyId: id, agent, via: "mcp" });
    const calls: Actor[] = [
      ...Array.from({ length: 5 }, () => asKey(key.id, "claude-code")),
      ...Array.from({ length: 2 }, () => asKey(key.id, "codex")),
      // Another key sending the same label stays its own bar.
      ...Array.from({ length: 3 }, () => asKey(second.key.id, "claude-code")),
    ];
    for (const a of calls) await db.transaction((tx) => appendEntry(tx, { actor: a, op: "t.call" }));
    await sealProject(db, owner.projectId);

    const rows = await ledgerEntriesByKey(db, { actor: owner, since: new Date(0) });
    expect(rows.map(({ label, kind, agents, entries }) => ({ label, kind, agents, entries }))).toEqual([
      { label: "test key", kind: "key", agents: ["claude-code", "codex"], entries: 7 },
      { label: "second key", kind: "key", agents: ["claude-code"], entries: 3 },
      { label: "Owner", kind: "owner", agents: expect.any(Array), entries: SEEDED },
    ]);
    expect(rows[0].id).toBe(key.id);
    // The window and the project hold: nothing after now, nothing of another project.
    expect(await ledgerEntriesByKey(db, { actor: owner, since: new Date(Date.now() + 60_000) })).toEqual([]);
    expect((await ledgerEntriesByKey(db, { actor: other, since: new Date(0) })).map((r) => r.entries)).toEqual([SEEDED]);
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
