import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { env } from "@/lib/env";
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";
import { drainBackground } from "@/lib/db/background";
import { pipelinedClient } from "@/lib/db/pipelined-client";

/**
 * One database handle per process. Next bundles route code apart from server.ts, so the handle lives on globalThis
 * (RUNTIME-FACTS: "One database handle per process"); it is created lazily so `next build` never opens a database.
 * Both drivers expose the same drizzle API; the PGlite one is typed as the postgres-js one.
 */
export type Db = PostgresJsDatabase;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that runs queries: the database or a transaction. */
export type Executor = Db | Tx;

/**
 * Duck-typed, not `instanceof`: Next bundles its own copy of drizzle, so a transaction begun by code of server.mjs's
 * copy is not an instance of the class the route code sees.
 */
export const isTransaction = (e: Executor): e is Tx => "rollback" in e;

export interface DbHandle {
  db: Db;
  kind: "postgres" | "pglite";
  sql?: Sql;
  pglite?: PGlite;
  close(): Promise<void>;
}

const g = globalThis as { __brynthDb?: Promise<DbHandle> };

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
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const sql = postgres(url, {
      max: env().DATABASE_POOL_SIZE,
      onnotice: () => {},
    });
    return { db: drizzle(pipelinedClient(sql)), kind: "postgres", sql, close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  let dataDir: string | undefined;
  let release = () => {};
  if (!url) {
    dataDir = join(env().DATA_DIR, "pglite");
    mkdirSync(dataDir, { recursive: true });
    release = acquireDataDirLock(dataDir);
  }
  const pglite = await PGlite.create(dataDir ?? "memory://");
  const db = drizzle(pglite) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pglite,
    close: async () => {
      await pglite.close();
      release();
    },
  };
}
