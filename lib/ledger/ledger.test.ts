import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { appendEntry } from "@/lib/ledger/append-entry";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { verifyLedger } from "@/lib/ledger/verify-ledger";
import { seedProject } from "@/lib/testing/seed";
import type { Actor } from "@/lib/actor";

let actor: Actor;
beforeAll(async () => {
  actor = (await seedProject()).actor;
});

async function append(n: number, extra: Partial<Actor> = {}, op = "test.op") {
  const db = await getDb();
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      db.transaction((tx) => appendEntry(tx, { actor: { ...actor, ...extra }, op, subject: `obj_${i}`, input: { i } })),
    ),
  );
}

describe("ledger", () => {
  it("assigns contiguous seqs under concurrent appends and verifies ok", async () => {
    await append(40);
    const db = await getDb();
    const result = await verifyLedger(db, { actor });
    expect(result).toMatchObject({ ok: true, first_inconsistent_seq: null });
    expect(result.checked).toBe(result.to_seq);
    const seqs = (await db.select({ seq: ledgerEntries.seq }).from(ledgerEntries).where(eq(ledgerEntries.projectId, actor.projectId))).map(
      (r) => Number(r.seq),
    );
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(Math.max(...seqs)).toBe(seqs.length);
  });

  it("filters, orders newest first and pages with a cursor", async () => {
    await append(7, { agent: "pager", platform: "codex" }, "page.op");
    const db = await getDb();
    const first = await queryLedger(db, { actor, op: "page.op", limit: 3 });
    expect(first.entries.map((e) => e.agent)).toEqual(["pager", "pager", "pager"]);
    expect(Number(first.entries[0].seq)).toBeGreaterThan(Number(first.entries[2].seq));
    const seen = [...first.entries];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await queryLedger(db, { actor, op: "page.op", limit: 3, cursor });
      seen.push(...page.entries);
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(7);
    expect((await queryLedger(db, { actor, platform: "codex", limit: 50 })).entries).toHaveLength(7);
    expect((await queryLedger(db, { actor, subject: "obj_3", op: "page.op", limit: 50 })).entries).toHaveLength(1);
    const future = new Date(Date.now() + 60_000);
    expect((await queryLedger(db, { actor, since: future, limit: 50 })).entries).toHaveLength(0);
    expect((await queryLedger(db, { actor, until: new Date(0), limit: 50 })).entries).toHaveLength(0);
  });

  it("verifies a range and names the seq of a row edited in the database", async () => {
    const db = await getDb();
    await db.execute(sql`update ledger_entries set op = 'forged' where project_id = ${actor.projectId} and seq = 5`);
    const all = await verifyLedger(db, { actor });
    expect(all).toMatchObject({ ok: false, first_inconsistent_seq: 5 });
    expect(await verifyLedger(db, { actor, fromSeq: 6 })).toMatchObject({ ok: true });
    expect(await verifyLedger(db, { actor, fromSeq: 1, toSeq: 4 })).toMatchObject({ ok: true, checked: 4 });
  });

  it("detects a deleted entry and a truncated tail", async () => {
    const db = await getDb();
    const p = await seedProject();
    const a = p.actor;
    for (let i = 0; i < 5; i++) await db.transaction((tx) => appendEntry(tx, { actor: a, op: "x" }));
    const last = (await verifyLedger(db, { actor: a })).to_seq;
    await db.delete(ledgerEntries).where(and(eq(ledgerEntries.projectId, a.projectId), eq(ledgerEntries.seq, last)));
    expect(await verifyLedger(db, { actor: a })).toMatchObject({ ok: false, first_inconsistent_seq: last });
    await db.delete(ledgerEntries).where(and(eq(ledgerEntries.projectId, a.projectId), eq(ledgerEntries.seq, 3)));
    expect(await verifyLedger(db, { actor: a })).toMatchObject({ ok: false, first_inconsistent_seq: 3 });
  });

  it("refuses to_seq before from_seq", async () => {
    await expect(verifyLedger(await getDb(), { actor, fromSeq: 3, toSeq: 2 })).rejects.toMatchObject({ code: "validation_error" });
  });
});
