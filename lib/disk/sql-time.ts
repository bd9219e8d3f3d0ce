import { sql } from "drizzle-orm";

/** A timestamp parameter for raw SQL: drizzle's postgres-js driver does not serialise Date parameters itself. */
export const at = (d: Date = new Date()) => sql`${d.toISOString()}::timestamptz`;
