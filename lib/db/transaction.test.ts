import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { afterCommit } from "@/lib/db/transaction";

// The after-commit hook: the one way to run work once a transaction has committed (ARCHITECTURE §5a).
describe("afterCommit", () => {
  beforeAll(async () => {
    await (await getDb()).execute(sql`create table after_probe (id int primary key)`);
  });
  const count = async (id: number) => (await query<{ n: number }>(await getDb(), sql`select count(*) as n from after_probe where id = ${id}`))[0].n;

  it("runs after the commit, when another connection can already read what it committed", async () => {
    const db = await getDb();
    const order: string[] = [];
    let seenByTask: Promise<number> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into after_probe values (1)`);
      afterCommit(tx, () => {
        order.push("task");
        seenByTask = count(1);
      });
      order.push("callback done");
    });
    order.push("transaction returned");
    expect(order).toEqual(["callback done", "task", "transaction returned"]);
    expect(await seenByTask).toBe(1);
  });

  it("never runs when the transaction rolls back", async () => {
    const db = await getDb();
    let ran = false;
    await expect(
      db.transaction(async (tx) => {
        afterCommit(tx, () => {
          ran = true;
        });
        await tx.execute(sql`insert into after_probe values (2)`);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(ran).toBe(false);
    expect(await count(2)).toBe(0);
  });

  it("drops what a rolled-back savepoint registered and keeps the rest", async () => {
    const db = await getDb();
    const ran: string[] = [];
    await db.transaction(async (tx) => {
      afterCommit(tx, () => void ran.push("outer"));
      await tx
        .transaction(async (sp) => {
          afterCommit(sp, () => void ran.push("inner"));
          throw new Error("inner fails");
        })
        .catch(() => null);
      await tx.transaction(async (sp) => afterCommit(sp, () => void ran.push("kept")));
    });
    expect(ran).toEqual(["outer", "kept"]);
  });

  it("runs at once given the database itself", async () => {
    let ran = false;
    afterCommit(await getDb(), () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it("logs a failing task without failing the committed transaction or the tasks after it", async () => {
    const db = await getDb();
    const ran: string[] = [];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into after_probe values (3)`);
        afterCommit(tx, () => {
          throw new Error("task broke");
        });
        afterCommit(tx, () => void ran.push("next"));
      });
    } finally {
      console.error = original;
    }
    expect(ran).toEqual(["next"]);
    expect(errors).toHaveLength(1);
    expect(await count(3)).toBe(1);
  });
});
