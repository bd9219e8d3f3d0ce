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

/**
 * The other side of a turn: transactions that share it run alongside each other, never while one has taken it
 * (takeTurn), until the caller's transaction ends. For a read that must not straddle a change made in turn.
 */
export async function shareTurn(tx: Executor, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended(${name}, 0))`);
}
