import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";

/**
 * Makes transactions that name the same `name` take turns, from here until the caller's transaction ends (a
 * transaction-scoped advisory lock on the name's 64-bit hash). For a check-then-write that no unique index can
 * guard — a cap, "one per project" — where concurrent callers would otherwise all pass the check.
 */
export async function takeTurn(tx: Executor, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}
