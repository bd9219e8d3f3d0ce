import type { ReservedSql, Sql } from "postgres";

type Fn = (...args: unknown[]) => unknown;

/**
 * The postgres.js client drizzle is given, tuned to spend fewer round trips — on a small machine the socket writes
 * of each one are the largest cost of a short request (see bench/):
 * - Every query goes as a named prepared statement. Drizzle asks for unnamed ones, which postgres.js describes
 *   before binding: two round trips a query instead of one (measured here: 140 → 77 µs a query). Statement texts
 *   are stable — variable-size batches go as one JSON parameter (append-batcher.ts, seal-entries.ts) — so each
 *   connection keeps a bounded set, and postgres.js recycles connections anyway.
 * - A transaction's BEGIN is not waited for: it goes out with the first statement, and its COMMIT with the
 *   statements the callback did not wait for (see `begin`).
 */
export function pipelinedClient(client: Sql): Sql {
  return wrap(client, { begin: (fn) => begin(client, fn) });
}

type Scope = (fn: (tx: Sql) => unknown) => Promise<unknown>;

/** Marks the client of a transaction whose COMMIT waits for the statements sent before it (`commitAwaits`). */
const COMMIT_AWAITS = Symbol("brynth.commitAwaits");

/**
 * True when `client` (a drizzle session's) belongs to such a transaction: a last statement may then be started
 * without waiting for it, to go out with the COMMIT in one write — its failure fails the transaction.
 */
export const commitAwaits = (client: unknown) => (client as { [COMMIT_AWAITS]?: boolean } | undefined)?.[COMMIT_AWAITS] === true;

/**
 * `client` with prepared statements, and the given `begin` (the pool) or `savepoint` (a transaction); `sent`
 * sees every statement of a transaction.
 */
function wrap(client: Sql, scopes: { begin?: Scope; savepoint?: Scope; sent?: (q: Promise<unknown>) => void }): Sql {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === COMMIT_AWAITS) return scopes.sent !== undefined;
      const value = Reflect.get(target, prop) as unknown;
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: object) => {
          const q = (value as Fn)(query, params, { ...options, prepare: true }) as Promise<unknown>;
          scopes.sent?.(q);
          return q;
        };
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
 *
 * Statements the callback started but did not wait for are ahead of the COMMIT on the connection, and postgres.js
 * sends what is queued in one write: a tool call's ledger entry goes out with its COMMIT (append-entry.ts). Their
 * failure turns the COMMIT into that ROLLBACK, and the transaction fails with their error.
 */
async function begin(client: Sql, fn: (tx: Sql) => unknown): Promise<unknown> {
  const conn: ReservedSql = await client.reserve();
  let failed: { error: unknown } | undefined;
  const sent = (q: Promise<unknown>) =>
    q.then(undefined, (error: unknown) => {
      failed ??= { error };
    });
  try {
    const began = conn.unsafe("begin");
    began.catch(() => {}); // its failure also fails the statements queued behind it
    let result: unknown;
    try {
      let savepoints = 0;
      const tx: Sql = wrap(conn as unknown as Sql, {
        sent,
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
    if (done.command !== "COMMIT") {
      const why = failed?.error instanceof Error ? `: ${failed.error.message}` : "";
      throw new Error(`transaction rolled back: a statement in it failed${why}`, { cause: failed?.error });
    }
    return result;
  } finally {
    conn.release();
  }
}
