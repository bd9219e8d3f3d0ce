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
