import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";

/**
 * The extensions every PGlite database is opened with: the ones the migrations create (btree_gin, drizzle/0024). A
 * data directory that holds an extension must be opened with it loaded, so every PGlite.create passes these.
 */
export const pgliteExtensions = { btree_gin };
