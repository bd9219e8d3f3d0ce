import type { SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";

/** Raw SQL rows from either driver: postgres-js returns an array, PGlite an object with `rows`. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
