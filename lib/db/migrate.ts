import { join } from "node:path";
import { upgradeSealedSecrets } from "@/lib/crypto/upgrade-sealed-secrets";
import { getHandle } from "@/lib/db/client";

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
  const reserved = await handle.sql!.reserve();
  try {
    await reserved`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    // drizzle's migrator runs its own transaction on the driver, outside lib/db's (no after-commit work here).
    await migrate(handle.db as never, { migrationsFolder: folder });
    // Upgrades that need code run under the same lock, after the schema they read.
    await upgradeSealedSecrets(handle.db);
  } finally {
    // The lock is a session lock: if unlocking fails, releasing the connection's session frees it anyway.
    await reserved`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch((err) => console.error("[brynth] migration unlock failed", err));
    reserved.release();
  }
}
