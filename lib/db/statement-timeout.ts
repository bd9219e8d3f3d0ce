import { sql } from "drizzle-orm";
import type { Executor, Tx } from "@/lib/db/client";
import { env } from "@/lib/env";

/**
 * The limits every pooled PostgreSQL connection starts with (postgres.js `connection`, sent at connect). Without
 * them a statement a caller can make slow — a search over huge bodies, a lock wait behind a stuck transaction —
 * held one of DATABASE_POOL_SIZE connections for as long as it took, and a few of them stalled the instance; a
 * transaction left idle held its connection and its locks for good. A setting of 0 is not sent, so the server's
 * (or the role's) own value applies: PgBouncer refuses startup parameters it does not know.
 */
export function connectionLimits(): Record<string, number> {
  const { DATABASE_STATEMENT_TIMEOUT_MS: statement, DATABASE_IDLE_TRANSACTION_TIMEOUT_MS: idle } = env();
  return {
    ...(statement > 0 ? { statement_timeout: statement } : {}),
    ...(idle > 0 ? { idle_in_transaction_session_timeout: idle } : {}),
  };
}

/**
 * Sets the statement timeout for the rest of `tx` only (SET LOCAL; 0: none), for work held to another limit than
 * the pool's: the SMTP store's, or none for work that is long by nature. PGlite accepts it and times nothing out.
 */
export async function setStatementTimeout(tx: Tx, ms: number): Promise<void> {
  await tx.execute(sql`select set_config('statement_timeout', ${`${ms}ms`}, true)`);
}

/**
 * Runs `fn` in a transaction of its own with no statement timeout: for work that legitimately runs long (a ledger
 * verification slice, an export page). Inside a caller's transaction it is a savepoint, and the lift lasts until
 * that transaction ends.
 */
export function withoutStatementTimeout<T>(db: Executor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await setStatementTimeout(tx, 0);
    return fn(tx);
  });
}
