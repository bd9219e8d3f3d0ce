import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query, statement } from "@/lib/db/statement";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

// The PostgreSQL transaction runner (postgres-driver.ts): BEGIN pipelined, COMMIT checked, statements sent with it.
describe.runIf(onPostgres)("transactions on PostgreSQL", () => {
  beforeAll(async () => {
    await (await getDb()).execute(sql`create table tx_probe (id int primary key)`);
  });
  const ids = async () => (await query<{ id: number }>(await getDb(), sql`select id from tx_probe order by id`)).map((r) => r.id);
  const insert = statement<never, [id: number]>(`insert into tx_probe values ($1)`);

  it("commits what the callback wrote and rolls back when it throws", async () => {
    const db = await getDb();
    await db.transaction((tx) => tx.execute(sql`insert into tx_probe values (1)`));
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (2)`);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await ids()).toEqual([1]);
  });

  it("fails a transaction whose failed statement the callback swallowed, instead of reporting a commit", async () => {
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (3)`);
        await tx.execute(sql`insert into tx_probe values (1)`).catch(() => null); // duplicate key
      }),
    ).rejects.toThrow(/rolled back.*duplicate key/);
    expect(await ids()).toEqual([1]);
  });

  it("sends a statement with the COMMIT, and fails the transaction with its error", async () => {
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (6)`);
      insert.withCommit(tx, 7);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (8)`);
        insert.withCommit(tx, 1); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await ids()).filter((id) => id >= 6 && id <= 8)).toEqual([6, 7]);
  });

  it("rolls a failed savepoint back and keeps the rest of the transaction", async () => {
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (4)`);
      const failed = await tx
        .transaction((sp) => sp.execute(sql`insert into tx_probe values (1)`))
        .then(
          () => false,
          () => true,
        );
      expect(failed).toBe(true);
      await tx.transaction((sp) => sp.execute(sql`insert into tx_probe values (5)`));
    });
    expect((await ids()).filter((id) => id < 6)).toEqual([1, 4, 5]);
  });

  it("runs many transactions at once on a small pool without mixing their statements", async () => {
    const db = await getDb();
    await Promise.all(Array.from({ length: 40 }, (_, i) => db.transaction((tx) => tx.execute(sql`insert into tx_probe values (${100 + i})`))));
    expect((await ids()).filter((id) => id >= 100)).toHaveLength(40);
  });
});
