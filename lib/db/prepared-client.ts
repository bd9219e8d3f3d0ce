import type { Sql } from "postgres";

type Fn = (...args: unknown[]) => unknown;

/**
 * The postgres.js client drizzle is given, with every query sent as a named prepared statement. Drizzle asks for
 * unnamed ones, and postgres.js then describes an unnamed statement before binding it: two round trips per query.
 * Prepared, a statement costs one round trip from its second use on (measured here: 140 → 77 µs a query). Statement
 * texts are stable — variable-size batches go as one JSON parameter (append-batcher.ts, seal-entries.ts) — so
 * each connection keeps a bounded set, and postgres.js recycles connections anyway.
 */
export function preparedClient(client: Sql): Sql {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: object) =>
          (value as Fn)(query, params, { ...options, prepare: true });
      }
      // Transactions and savepoints hand the callback a client of their own connection: wrap that one too.
      if (prop === "begin" || prop === "savepoint") {
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: Sql) => unknown;
          return (value as Fn).call(target, ...args, (tx: Sql) => callback(preparedClient(tx)));
        };
      }
      return typeof value === "function" ? (value as Fn).bind(target) : value;
    },
  });
}
