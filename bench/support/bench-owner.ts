import { freshDatabase } from "./processes";

export const BENCH_OWNER = { email: "bench@example.com", password: "bench-password-123" };

/**
 * An in-process bench's starting point: a fresh PostgreSQL database, migrated, with the first owner, a project and the
 * owner's dashboard actor. The environment is set before the app's modules load (they read it once).
 */
export async function benchOwner(prefix: string, projectName = "bench") {
  const database = await freshDatabase(prefix);
  process.env.DATABASE_URL = database.url;
  process.env.DATA_DIR ??= "/tmp/brynth-bench";
  process.env.APP_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { migrateDb } = await import("@/lib/db/migrate");
  const { createFirstOwner } = await import("@/lib/owners/create-owner");
  const { ownerActor } = await import("@/lib/owner-api/owner-actor");
  await migrateDb();
  const db = await getDb();
  const { owner, project } = await db.transaction((tx) => createFirstOwner(tx, { ...BENCH_OWNER, projectName }));
  const actor = await ownerActor(db, owner, project.id, "dashboard");
  return {
    database,
    db,
    owner,
    project,
    actor,
    close: async () => {
      await closeDb();
      await database.drop();
    },
  };
}
