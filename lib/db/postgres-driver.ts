import type { ReservedSql, Sql } from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db, Tx } from "@/lib/db/client";
import {
  commitOutcomeUnknown,
  newTransactionState,
  registerExecutor,
  runAfterCommit,
  runAfterRollback,
  savepoints,
  settle,
  withCommitFailure,
  type DriverQuery,
  type TransactionState,
} from "@/lib/db/transaction";

type Fn = (...args: unknown[]) => unknown;

/**
 * The PostgreSQL side of lib/db, tuned to spend fewer round trips — on a small machine the socket writes of each
 * one are the largest cost of a short request (see bench/):
 * - Every query goes as a named prepared statement (postgres.js's own `prepare` option). Drizzle asks for unnamed
 *   ones, which postgres.js describes before binding: two round trips a query instead of one (measured here:
 *   140 → 77 µs a query). Statement texts are stable — variable-size batches go as one JSON parameter — so each
 *   connection keeps a bounded set, and postgres.js recycles connections anyway.
 * - A transaction's BEGIN is not waited for: it goes out with the first statement.
 * - Statements handed to `withCommit` (statement.ts) go out with the COMMIT in one write.
 */
export function openPostgres(sql: Sql): Db {
  const db = drizzle(prepared(sql, sql)) as unknown as Db;
  registerExecutor(db, driverQuery(sql));
  db.transaction = <T>(fn: (tx: Tx) => Promise<T>) => transaction(sql, fn);
  return db;
}

/**
 * postgres.js's `unsafe` with `prepare: true`, for drizzle's queries and ours alike. `failed` learns of each
 * statement that fails (the caller still gets the rejection), so a COMMIT that Postgres turned into a ROLLBACK can
 * name its cause.
 */
function prepared(client: Sql | ReservedSql, pool: Sql, failed?: (error: unknown) => void): Sql {
  return new Proxy(client as Sql, {
    get(target, prop) {
      // drizzle sets its type parsers on `options`, which a reserved connection shares with its pool but lacks.
      if (prop === "options") return pool.options;
      const value = Reflect.get(target, prop) as unknown;
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: object) => {
          const q = (value as Fn).call(target, query, params, { ...options, prepare: true }) as Promise<unknown>;
          if (failed) q.then(undefined, failed);
          return q;
        };
      }
      return typeof value === "function" ? (value as Fn).bind(target) : value;
    },
  });
}

function driverQuery(client: Sql | ReservedSql): DriverQuery {
  return async (text, params) => {
    const rows = await client.unsafe(text, params as never[], { prepare: true });
    return { rows: rows as unknown as Record<string, unknown>[], columns: rows.columns ?? [] };
  };
}

/**
 * A transaction on a reserved connection. BEGIN is pipelined in front of the first statement, and its outcome held
 * (settled) until the end rather than waited for. Postgres turns the COMMIT of a transaction in which any statement
 * failed into a ROLLBACK without an error — even when the callback caught that failure — so the COMMIT's reply is
 * checked: such a transaction fails here as it would in postgres.js. Statements sent with the commit are on the
 * connection ahead of the COMMIT; their failure fails the transaction with their error.
 */
async function transaction<T>(pool: Sql, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const conn: ReservedSql = await pool.reserve();
  const state: TransactionState = newTransactionState();
  try {
    const began = settle(conn.unsafe("begin"));
    let firstFailure: unknown;
    const tx = drizzle(prepared(conn, pool, (error) => (firstFailure ??= error))) as unknown as Tx;
    registerExecutor(tx, driverQuery(conn), state);
    tx.transaction = savepoints(tx, state, (text) => conn.unsafe(text));
    let result: T;
    try {
      result = await fn(tx);
      const opened = await began;
      if (!opened.ok) throw opened.error;
    } catch (err) {
      await Promise.all(state.withCommit.splice(0));
      const rolledBack = await settle(conn.unsafe("rollback"));
      if (!rolledBack.ok) console.error("[brynth] rollback failed after", err, rolledBack.error);
      // Never committed: nothing was sent with a COMMIT, and a lost connection rolls back too.
      runAfterRollback(state);
      throw err;
    }
    const committed = settle(conn.unsafe("commit"));
    const sent = await withCommitFailure(state);
    const done = await committed;
    // Only the server's answer to the COMMIT says it rolled back (a statement sent with it failed there, or an earlier
    // one did). A COMMIT with no answer (a lost connection) may have committed, whatever the statements sent with it
    // report: the rollback's tasks are not run (running them deleted a committed file's bytes: found by helper-113).
    if (done.ok && (done.value as { command?: string }).command !== "COMMIT") runAfterRollback(state);
    if (!done.ok) throw commitOutcomeUnknown(done.error);
    if (!sent.ok) throw sent.error;
    if ((done.value as { command?: string }).command !== "COMMIT") {
      const why = firstFailure instanceof Error ? `: ${firstFailure.message}` : "";
      throw new Error(`transaction rolled back: a statement in it failed${why}`, { cause: firstFailure });
    }
    runAfterCommit(state);
    return result;
  } finally {
    conn.release();
  }
}
