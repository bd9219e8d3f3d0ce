import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { env } from "@/lib/env";
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";
import { drainBackground } from "@/lib/db/background";
import { connectionLimits } from "@/lib/db/statement-timeout";

/**
 * One database handle per process. Next bundles route code apart from server.ts, so the handle lives on globalThis
 * (RUNTIME-FACTS: "One database handle per process"); it is created lazily so `next build` never opens a database.
 * Both drivers expose the same drizzle API; the PGlite one is typed as the postgres-js one. Transactions are run by
 * lib/db (postgres-driver.ts, pglite-driver.ts), which gives each one its after-commit hook (transaction.ts).
 */
export interface Db extends Omit<PostgresJsDatabase, "transaction"> {
  /** Commits what `fn` did, or nothing if it throws; nested calls are savepoints (transaction.ts). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}
declare const inTransaction: unique symbol;
/** A database handle bound to one open transaction: what `db.transaction(fn)` gives `fn`. */
export interface Tx extends Db {
  readonly [inTransaction]: true;
}
/** Anything that runs queries: the database or a transaction. */
export type Executor = Db | Tx;

export interface DbHandle {
  db: Db;
  kind: "postgres" | "pglite";
  sql?: Sql;
  pglite?: PGlite;
  close(): Promise<void>;
}

const g = globalThis as { __brynthDb?: Promise<DbHandle> };

/** A migrated data directory (PGlite's dumpDataDir) that `memory://` databases start from. */
let memoryTemplate: Blob | undefined;

/**
 * Tests only: each test file's in-memory database loads one data directory migrated once per run
 * (lib/testing/global-setup.ts) instead of running initdb and every migration, which took seconds per file.
 */
export function setMemoryTemplate(dataDir: Blob | undefined): void {
  memoryTemplate = dataDir;
}

export function getHandle(): Promise<DbHandle> {
  g.__brynthDb ??= open().catch((err) => {
    g.__brynthDb = undefined;
    throw err;
  });
  return g.__brynthDb;
}

export async function getDb(): Promise<Db> {
  return (await getHandle()).db;
}

/** Closes the handle once the background work that still needs it is done (see background.ts). */
export async function closeDb(): Promise<void> {
  if (g.__brynthDb) await drainBackground();
  const handle = g.__brynthDb;
  g.__brynthDb = undefined;
  if (handle) await (await handle).close();
}

async function open(): Promise<DbHandle> {
  const url = env().DATABASE_URL;
  if (url && !url.startsWith("memory://")) {
    const { default: postgres } = await import("postgres");
    const { openPostgres } = await import("@/lib/db/postgres-driver");
    const { reconnectDelaySeconds } = await import("@/lib/db/reconnect-delay");
    const sql = postgres(url, {
      max: env().DATABASE_POOL_SIZE,
      onnotice: () => {},
      connection: connectionLimits(),
      backoff: reconnectDelaySeconds,
    });
    return { db: openPostgres(sql), kind: "postgres", sql, close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { openPglite } = await import("@/lib/db/pglite-driver");
  const { pgliteExtensions } = await import("@/lib/db/pglite-extensions");
  let dataDir: string | undefined;
  let release = () => {};
  if (!url) {
    dataDir = join(env().DATA_DIR, "pglite");
    mkdirSync(dataDir, { recursive: true });
    release = acquireDataDirLock(dataDir);
  }
  const pglite = await PGlite.create(dataDir ?? "memory://", { loadDataDir: dataDir ? undefined : memoryTemplate, extensions: pgliteExtensions });
  return {
    db: openPglite(pglite),
    kind: "pglite",
    pglite,
    close: async () => {
      await pglite.close();
      release();
    },
  };
}
