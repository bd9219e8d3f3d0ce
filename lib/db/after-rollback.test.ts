import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { afterCommit, afterRollback } from "@/lib/db/transaction";

/** afterRollback: work outside the database (bytes in the blob store) undone when its transaction rolls back. */
describe("afterRollback", () => {
  it("runs when the callback fails, or a statement sent with the COMMIT does, and never after a commit", async () => {
    const db = await getDb();
    const ran: string[] = [];
    await db.transaction(async (tx) => {
      afterRollback(tx, () => void ran.push("committed"));
      afterCommit(tx, () => void ran.push("after commit"));
    });
    await expect(
      db.transaction(async (tx) => {
        afterRollback(tx, () => void ran.push("callback failed"));
        afterCommit(tx, () => void ran.push("never"));
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    await expect(
      db.transaction(async (tx) => {
        afterRollback(tx, () => void ran.push("statement failed"));
        await query(tx, sql`select 1 / 0`).catch(() => {});
      }),
    ).rejects.toThrow();
    // Outside a transaction nothing can roll back.
    afterRollback(db, () => void ran.push("no transaction"));
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual(["after commit", "callback failed", "statement failed"]);
  });

  it("runs a savepoint's own tasks when it rolls back, while the transaction goes on and commits", async () => {
    const db = await getDb();
    const ran: string[] = [];
    await db.transaction(async (tx) => {
      afterRollback(tx, () => void ran.push("outer"));
      await tx
        .transaction(async (sp) => {
          afterRollback(sp, () => void ran.push("savepoint"));
          throw new Error("inner refused");
        })
        .catch(() => {});
      await tx.transaction(async (sp) => afterRollback(sp, () => void ran.push("released savepoint")));
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual(["savepoint"]);
  });
});
