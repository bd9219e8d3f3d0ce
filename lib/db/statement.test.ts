import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { bigint, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { getDb } from "@/lib/db/client";
import { insertRows, query, statement, storableJson } from "@/lib/db/statement";

// The hand-written SQL entry point must give what drizzle's builder gives, on both drivers: if a drizzle, postgres.js
// or PGlite upgrade changes how rows come back, these fail.
const probe = pgTable("statement_probe", {
  id: text("id").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
  sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
  body: jsonb("body"),
  note: text("note"),
});

const selectProbe = statement<typeof probe.$inferSelect, [id: string]>(
  `select id, created_at, expires_at, size_bytes, body, note from statement_probe where id = $1`,
);
const insertProbe = statement<never, [id: string, createdAt: string]>(
  `insert into statement_probe (id, created_at, size_bytes) values ($1, $2::timestamptz, 1)`,
);

describe("the SQL entry point", () => {
  beforeAll(async () => {
    const db = await getDb();
    await db.execute(sql`create table statement_probe (id text primary key, created_at timestamptz not null, expires_at timestamptz,
      size_bytes bigint not null, body jsonb, note text)`);
    await db.insert(probe).values([
      { id: "a", createdAt: new Date("2026-01-02T03:04:05.678Z"), expiresAt: null, sizeBytes: 9_007_199_254, body: { k: [1, "two", null] }, note: "x" },
      { id: "b", createdAt: new Date("2026-06-30T23:59:59.001Z"), expiresAt: new Date("2027-01-01T00:00:00Z"), sizeBytes: 0, body: null, note: null },
    ]);
  });

  it("gives drizzle's row shape: camelCase keys, timestamps as Date, bigints as numbers, json parsed", async () => {
    const db = await getDb();
    for (const id of ["a", "b"]) {
      const [viaDrizzle] = await db.select().from(probe).where(eq(probe.id, id));
      const [viaStatement] = await selectProbe(db, id);
      const [viaQuery] = await query<typeof probe.$inferSelect>(db, sql`select * from statement_probe where id = ${id}`);
      expect(viaStatement).toEqual(viaDrizzle);
      expect(viaQuery).toEqual(viaDrizzle);
      expect(viaStatement.createdAt).toBeInstanceOf(Date);
      expect(typeof viaStatement.sizeBytes).toBe("number");
    }
  });

  it("runs inside the caller's transaction", async () => {
    const db = await getDb();
    const seen = await db.transaction(async (tx) => {
      await insertProbe(tx, "c", "2026-01-01T00:00:00.000Z");
      return (await selectProbe(tx, "c")).length;
    });
    expect(seen).toBe(1);
    await expect(
      db.transaction(async (tx) => {
        await insertProbe(tx, "d", "2026-01-01T00:00:00.000Z");
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await selectProbe(db, "d")).toEqual([]);
  });

  it("sends a statement with the commit: written with it, or the transaction fails with its error", async () => {
    const db = await getDb();
    await db.transaction(async (tx) => {
      insertProbe.withCommit(tx, "e", "2026-01-01T00:00:00.000Z");
    });
    expect(await selectProbe(db, "e")).toHaveLength(1);
    await expect(
      db.transaction(async (tx) => {
        await insertProbe(tx, "f", "2026-01-01T00:00:00.000Z");
        insertProbe.withCommit(tx, "a", "2026-01-01T00:00:00.000Z"); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await selectProbe(db, "f")).toEqual([]);
  });

  it("refuses a handle that lib/db did not open", async () => {
    const { drizzle } = await import("drizzle-orm/pglite");
    const { PGlite } = await import("@electric-sql/pglite");
    const foreign = drizzle(new PGlite()) as never;
    await expect(selectProbe(foreign, "a")).rejects.toThrow(/not opened through lib\/db/);
  });

  it("inserts rows with insertRows as drizzle would, the columns left out taking their defaults", async () => {
    const db = await getDb();
    const insert = insertRows<Pick<typeof probe.$inferInsert, "id" | "createdAt" | "sizeBytes" | "body" | "note">>(probe, [
      "id",
      "createdAt",
      "sizeBytes",
      "body",
      "note",
    ]);
    const at = new Date("2026-03-04T05:06:07.089Z");
    await insert(db, [
      { id: "r1", createdAt: at, sizeBytes: 42, body: { nested: { list: [1, "two"] }, quote: 'a "b" \\u0041' }, note: "plain" },
      { id: "r2", createdAt: at, sizeBytes: 0, body: null, note: "caf\uD800 and \uD83D\uDE00" },
    ]);
    await insert(db, []);
    const rows = await db.select().from(probe).where(sql`${probe.id} in ('r1', 'r2')`).orderBy(probe.id);
    expect(rows).toEqual([
      { id: "r1", createdAt: at, expiresAt: null, sizeBytes: 42, body: { nested: { list: [1, "two"] }, quote: 'a "b" \\u0041' }, note: "plain" },
      // A lone surrogate becomes U+FFFD, as postgres.js writes it in a text parameter; a pair is kept.
      { id: "r2", createdAt: at, expiresAt: null, sizeBytes: 0, body: null, note: "caf\uFFFD and \uD83D\uDE00" },
    ]);
  });

  it("writes JSON Postgres accepts: lone surrogates as U+FFFD, escaped backslashes and pairs untouched", () => {
    const cases: [unknown, unknown][] = [
      ["a\uD800b", "a\uFFFDb"],
      ["x\uDC00", "x\uFFFD"],
      ["\\ud800", "\\ud800"],
      ["\\\uD800", "\\\uFFFD"],
      ["\uD83D\uDE00", "\uD83D\uDE00"],
      [{ "k\uD800": ["\uDBFF"] }, { "k\uFFFD": ["\uFFFD"] }],
    ];
    for (const [value, stored] of cases) expect(JSON.parse(storableJson(value))).toEqual(stored);
  });
});
