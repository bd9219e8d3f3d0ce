import type { Executor } from "@/lib/db/client";

/**
 * A hot-path statement written once as SQL text with `$n` parameters. Drizzle's builder and `sql` template walk
 * their chunks on every call — for a short statement that costs more CPU than the database spends on it
 * (bench/events.ts, bench/disk.ts) — while this goes straight to the driver through the executor's own session,
 * so it runs inside the caller's transaction like any drizzle query.
 *
 * Rows come back as the drivers give them, the same on both: snake_case columns, json parsed, timestamps as
 * Postgres text (drizzle sets both drivers so; `toDate` reads them).
 */
export function statement<Row, Params extends unknown[]>(text: string) {
  return async (db: Executor, ...params: Params): Promise<Row[]> => {
    // postgres.js directly: drizzle's execute adds two tracing spans and a cache lookup around the same call.
    const client = sessionClient(db) as { unsafe?: (text: string, params: unknown[], options: object) => Promise<Row[]> } | undefined;
    if (typeof client?.unsafe === "function") return client.unsafe(text, params, { prepare: true });
    const result = (await db._.session.prepareQuery({ sql: text, params }, undefined, undefined, false).execute()) as Row[] | { rows: Row[] };
    return Array.isArray(result) ? result : result.rows; // postgres-js gives the rows, PGlite a result holding them
  };
}

/** The driver client under a drizzle database or transaction. */
export const sessionClient = (db: Executor): unknown => (db._.session as unknown as { client?: unknown }).client;

/** A timestamp column of a `statement` row. */
export function toDate(value: string): Date;
export function toDate(value: string | null): Date | null;
export function toDate(value: string | null): Date | null {
  return value === null ? null : new Date(value);
}
