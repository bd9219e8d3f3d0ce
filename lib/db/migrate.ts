import { join } from "node:path";
import { upgradeSealedSecrets } from "@/lib/crypto/upgrade-sealed-secrets";
import { getHandle } from "@/lib/db/client";
import { env } from "@/lib/env";

/** Any fixed number: the advisory lock that serialises migrations between instances starting together. */
const MIGRATION_LOCK = 7_224_301;

export async function migrateDb(folder = join(process.cwd(), "drizzle")): Promise<void> {
  const handle = await getHandle();
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    // PGlite is single-process (data-dir lock), so no advisory lock is needed.
    await migrate(handle.db as never, { migrationsFolder: folder });
    await upgradeSealedSecrets(handle.db);
    return;
  }
  // A connection of its own, without the pool's statement and idle timeouts (statement-timeout.ts): a migration
  // that rewrites a big table, and an instance waiting for another's to finish, are long by nature. One connection,
  // so the session lock and the migration share it.
  const { default: postgres } = await import("postgres");
  const { openPostgres } = await import("@/lib/db/postgres-driver");
  const url = env().DATABASE_URL;
  if (!url) throw new Error("migrateDb: a PostgreSQL handle without DATABASE_URL");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const db = openPostgres(sql);
  try {
    await requireUtf8(sql);
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    // drizzle's migrator runs its own transaction on the driver, outside lib/db's (no after-commit work here).
    await migrate(db as never, { migrationsFolder: folder });
    // Upgrades that need code run under the same lock, after the schema they read.
    await upgradeSealedSecrets(db);
  } finally {
    // Ending the session frees its lock even if nothing else did.
    await sql.end({ timeout: 5 });
  }
}

/**
 * Brynth stores and compares text as Unicode (NFC paths, code-point limits, case folding): a database of another
 * encoding failed at the first migration that normalises text, and the instance never came up. SQL_ASCII is what
 * initdb gives under a C or POSIX locale without --encoding, so it is met in the wild; say so before anything runs.
 */
async function requireUtf8(sql: import("postgres").Sql): Promise<void> {
  const [{ server_encoding: encoding, db }] = await sql<{ server_encoding: string; db: string }[]>`
    select current_setting('server_encoding') as server_encoding, current_database() as db`;
  if (encoding !== "UTF8") {
    throw new Error(
      `Database ${db} is encoded ${encoding}; Brynth needs UTF8. Create one with ENCODING 'UTF8' (createdb -E UTF8 -T template0 <name>), move the data with pg_dump and pg_restore, and point DATABASE_URL at it. Nothing was changed.`,
    );
  }
}
