import { PgDialect, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { getTableColumns, getTableName, type SQL } from "drizzle-orm";
import type { Executor, Tx } from "@/lib/db/client";
import { driverQuery, sendWithCommit, type DriverResult } from "@/lib/db/transaction";

/**
 * The one entry point for SQL written by hand; drizzle's builder is the default everywhere else. Two forms:
 * - `statement(text)`: a hot-path statement written once as SQL text with `$n` parameters. Drizzle's builder and
 *   `sql` template walk their chunks on every call — for a short statement that costs more CPU than the database
 *   spends on it (bench/events.ts, bench/disk.ts) — while this goes straight to the driver's own API (postgres.js
 *   `unsafe` as a prepared statement, PGlite `query`), inside the caller's transaction when given one.
 * - `query(db, sql\`…\`)`: SQL that drizzle's builder cannot say (CTEs over JSON parameters, window functions),
 *   written with drizzle's `sql` template.
 *
 * Either way rows come back shaped as drizzle's own: camelCase keys (`received_at` → `receivedAt`), timestamps as
 * `Date`, bigints as numbers (every bigint column here is `mode: "number"`), json parsed — the same on both
 * drivers. Each module keeps its statements in one file of its own (`<module>/statements.ts`).
 */
export interface Statement<Row, Params extends unknown[]> {
  (db: Executor, ...params: Params): Promise<Row[]>;
  /**
   * Sends the statement without a round trip of its own: it goes out with the transaction's COMMIT, in the same
   * write on PostgreSQL, and the transaction fails with its error if it fails. For a transaction's last write,
   * whose result nobody reads (a ledger entry).
   */
  withCommit(tx: Tx, ...params: Params): void;
}

export function statement<Row, Params extends unknown[] = unknown[]>(text: string): Statement<Row, Params> {
  const shape = rowShaper<Row>();
  const run = async (db: Executor, ...params: Params) => shape(await driverQuery(db)(text, params));
  return Object.assign(run, {
    withCommit: (tx: Tx, ...params: Params) => void sendWithCommit(tx, driverQuery(tx)(text, params)),
  });
}

/**
 * A multi-row INSERT of the columns `keys` into `table`, its text written once: the rows go as one JSON parameter
 * that json_populate_recordset spreads over the table's own column types, so one prepared statement serves any
 * number of rows, where drizzle's builder walks every column of every row on each call (an outbound message's
 * three INSERTs: 0.45 ms of API CPU less, 0.1 ms of Postgres CPU more, bench/mail-send.ts). Columns outside `keys`
 * take their defaults.
 * Values go as JSON writes them: Dates as ISO strings, jsonb columns as nested JSON.
 */
export function insertRows<Row extends Record<string, unknown>>(table: PgTable, keys: readonly (keyof Row & string)[]) {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const name = getTableName(table);
  const columns = keys.map((key) => {
    const column = all[key];
    if (!column || column.generated) throw new Error(`insertRows: ${key} is not a writable column of ${name}`);
    return { key, name: column.name };
  });
  const list = columns.map((c) => `"${c.name}"`).join(", ");
  const insert = statement<never, [rows: string]>(`insert into "${name}" (${list}) select ${list} from json_populate_recordset(null::"${name}", $1::json)`);
  return async (db: Executor, rows: Row[]): Promise<void> => {
    if (rows.length === 0) return;
    const records = rows.map((row) => {
      const record: Record<string, unknown> = {};
      for (const c of columns) record[c.name] = row[c.key] ?? null;
      return record;
    });
    await insert(db, storableJson(records));
  };
}

/**
 * JSON for a json or jsonb parameter. JSON.stringify escapes a lone surrogate (`\ud800`), which Postgres refuses
 * in JSON; it becomes U+FFFD, as it does when postgres.js sends the same string as a text parameter.
 * JSON.stringify escapes nothing else in that range (a pair is written as is), and an escaped backslash before the
 * `u` means literal text.
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g, "$1\\ufffd");
}

const dialect = new PgDialect();

export async function query<Row>(db: Executor, sql: SQL): Promise<Row[]> {
  const q = dialect.sqlToQuery(sql);
  return rowShaper<Row>()(await driverQuery(db)(q.sql, q.params));
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A select list for `statement` text (or `query`, through `sql.raw`), rendered once at module load instead of on
 * every call: `"table"."column" as "key"` per entry, aliased so that the rows come back under the object's own
 * keys. Drizzle's builder walks a 30-column selection on every call, and for a page of ten rows that costs more
 * CPU than the database spends on it (bench/mailbox-read.ts).
 */
export function columnList(columns: Record<string, PgColumn>): string {
  const items = Object.entries(columns).map(([key, col]) => {
    if (camel(snake(key)) !== key) throw new Error(`columnList: key ${key} does not round-trip through snake_case`);
    return `"${getTableName(col.table)}"."${col.name}" as "${snake(key)}"`;
  });
  return items.join(", ");
}

type Convert = (v: unknown) => unknown;
const toDate: Convert = (v) => (v === null || v instanceof Date ? v : new Date(v as string));
/** `timestamp` without a zone holds UTC here, as drizzle reads it. */
const toUtcDate: Convert = (v) => (v === null || v instanceof Date ? v : new Date(`${v as string}Z`));
const toNumber: Convert = (v) => (v === null || typeof v === "number" ? v : Number(v));
/** Postgres type OIDs whose driver values differ between postgres.js (as drizzle sets it up) and PGlite. */
const CONVERT: Record<number, Convert> = { 1184: toDate, 1114: toUtcDate, 20: toNumber };

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Rows into drizzle's shape; the mapping of a column list is worked out once and reused. */
function rowShaper<Row>(): (result: DriverResult) => Row[] {
  // A prepared statement's column list is the same array every time on a connection: compared by reference first.
  let lastColumns: DriverResult["columns"] | undefined;
  let lastKey = "";
  let fields: { from: string; to: string; convert?: Convert }[] = [];
  return ({ rows, columns }) => {
    if (rows.length === 0) return [];
    if (columns !== lastColumns) {
      const key = columns.map((c) => `${c.name}:${c.type}`).join(",");
      if (key !== lastKey) {
        fields = columns.map((c) => ({ from: c.name, to: camel(c.name), convert: CONVERT[c.type] }));
        lastKey = key;
      }
      lastColumns = columns;
    }
    return rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        const v = row[f.from];
        out[f.to] = f.convert && v !== undefined ? f.convert(v) : v;
      }
      return out as Row;
    });
  };
}
