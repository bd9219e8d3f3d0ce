import type { PGlite, Transaction } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import type { Db, Tx } from "@/lib/db/client";
import {
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

/**
 * The embedded side of lib/db: drizzle over PGlite, with transactions run by PGlite's own `transaction()`. PGlite
 * runs one statement at a time, so statements sent with the commit are simply waited for before it.
 */
export function openPglite(pglite: PGlite): Db {
  const db = drizzle({ client: pglite }) as unknown as Db;
  registerExecutor(db, driverQuery(pglite));
  db.transaction = <T>(fn: (tx: Tx) => Promise<T>) => transaction(pglite, fn);
  return db;
}

function driverQuery(client: PGlite | Transaction): DriverQuery {
  return async (text, params) => {
    const result = await client.query<Record<string, unknown>>(text, params);
    return { rows: result.rows, columns: result.fields.map((f) => ({ name: f.name, type: f.dataTypeID })) };
  };
}

async function transaction<T>(pglite: PGlite, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const state: TransactionState = newTransactionState();
  try {
    const result = await pglite.transaction(async (conn) => {
      const tx = drizzle({ client: conn as unknown as PGlite }) as unknown as Tx;
      registerExecutor(tx, driverQuery(conn), state);
      tx.transaction = savepoints(tx, state, (text) => conn.exec(text));
      const out = await settle(fn(tx));
      // Whatever the callback left in flight finishes inside the transaction, before it commits or rolls back.
      const sent = await withCommitFailure(state);
      if (!out.ok) throw out.error;
      if (!sent.ok) throw sent.error;
      return out.value as T;
    });
    runAfterCommit(state);
    return result;
  } catch (err) {
    // In-process, a transaction that failed to commit did not: there is no lost connection to leave it unknown.
    runAfterRollback(state);
    throw err;
  }
}
