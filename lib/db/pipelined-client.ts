import type { ReservedSql, Sql } from "postgres";

type Fn = (...args: unknown[]) => unknown;

/**
 * The postgres.js client drizzle is given, tuned to spend fewer round trips — on a small machine the socket writes
 * of each one are the largest cost of a short request (see bench/):
 * - Every query goes as a named prepared statement. Drizzle asks for unnamed ones, which postgres.js describes
 *   before binding: two round trips a query instead of one (measured here: 140 → 77 µs a query). Statement texts
 *   are stable — variable-size batches go as one JSON parameter (append-batcher.ts, seal-entries.ts) — so each
 *   connection keeps a bounded set, and postgres.js recycles connections anyway.
 * - A transaction's BEGIN is not waited for: it goes out with the first statement (see `begin`).
 */
export function pipelinedClient(client: Sql): Sql {
  return wrap(client, { begin: (fn) => begin(client, fn) });
}

type Scope = (fn: (tx: Sql) => unknown) => Promise<unknown>;

/** `client` with prepared statements, and the given `begin` (the pool) or `savepoint` (a transaction). */
function wrap(client: Sql, scopes: { begin?: Scope; savepoint?: Scope }): Sql {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: object) =>
          (value as Fn)(query, params, { ...options, prepare: true });
      }
      const scope = prop === "begin" ? scopes.begin : prop === "savepoint" ? scopes.savepoint : undefined;
      if (scope) return (...args: unknown[]) => scope(args.pop() as (tx: Sql) => unknown);
      return typeof value === "function" ? (value as Fn).bind(target) : value;
    },
  });
}

/**
 * A transaction on a reserved connection with BEGIN pipelined in front of the first statement. Postgres turns the
 * COMMIT of a transaction in which any statement failed into a ROLLBACK without an error — even when the callback
 * caught that failure — so the COMMIT's reply is checked: such a transaction fails here as it would in postgres.js.
 */
async function begin(client: Sql, fn: (tx: Sql) => unknown): Promise<unknown> {
  const conn: ReservedSql = await client.reserve();
  try {
    const began = conn.unsafe("begin");
    began.catch(() => {}); // its failure also fails the statements queued behind it
    let result: unknown;
    try {
      let savepoints = 0;
      const tx: Sql = wrap(conn as unknown as Sql, {
        // Nested transactions: drizzle's tx.transaction(), e.g. a step allowed to fail without failing the whole.
        savepoint: async (inner) => {
          const name = `sp${savepoints++}`;
          await conn.unsafe(`savepoint ${name}`);
          try {
            const out = await inner(tx);
            await conn.unsafe(`release savepoint ${name}`);
            return out;
          } catch (err) {
            await conn.unsafe(`rollback to savepoint ${name}`);
            throw err;
          }
        },
      });
      result = await fn(tx);
      await began;
    } catch (err) {
      await conn.unsafe("rollback").catch(() => {});
      throw err;
    }
    const done = await conn.unsafe("commit");
    if (done.command !== "COMMIT") throw new Error(`transaction rolled back: a statement in it failed (${done.command})`);
    return result;
  } finally {
    conn.release();
  }
}
