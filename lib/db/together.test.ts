import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { together } from "@/lib/db/together";

describe("together", () => {
  it("runs every step, skips the ones given as false, and waits for the slowest before answering", async () => {
    const done: string[] = [];
    const step = (name: string, ms: number) => () => new Promise<void>((r) => setTimeout(() => (done.push(name), r()), ms));
    await together([step("slow", 30), false, step("fast", 1), null]);
    expect(done.sort()).toEqual(["fast", "slow"]);
  });

  it("answers with the first failure only after every other step has settled", async () => {
    let finished = false;
    const err = await together([
      () => Promise.reject(new Error("first")),
      () => new Promise<void>((r) => setTimeout(() => ((finished = true), r()), 20)),
    ]).catch((e: Error) => e);
    expect((err as Error).message).toBe("first");
    expect(finished).toBe(true);
  });

  it("keeps a transaction's statements whole: a failing one rolls back the others", async () => {
    const db = await getDb();
    await db.execute(sql`create table if not exists together_test (id int primary key)`);
    await db.execute(sql`delete from together_test`);
    const failed = await db
      .transaction((tx) => together([() => tx.execute(sql`insert into together_test values (1)`), () => tx.execute(sql`insert into together_test values (1)`)]))
      .catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(await query<{ n: number }>(db, sql`select count(*)::int as n from together_test`)).toEqual([{ n: 0 }]);
    await db.transaction((tx) =>
      together([() => tx.execute(sql`insert into together_test values (2)`), () => tx.execute(sql`insert into together_test values (3)`)]),
    );
    expect(await query<{ n: number }>(db, sql`select count(*)::int as n from together_test`)).toEqual([{ n: 2 }]);
  });
});
