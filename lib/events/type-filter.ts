import { eq, like, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events } from "@/lib/db/schema/events";

/** `invoice.paid` (exact) or `invoice.*` (prefix): a `*` is allowed only as the last character. */
export const typeFilter = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^*]*\*?$/, "use an exact type or a prefix ending in *, e.g. invoice.*")
  .describe("Exact event type, or a prefix ending in `*`, e.g. `invoice.*`.");

export function typeCondition(type: string): SQL {
  if (!type.endsWith("*")) return eq(events.type, type);
  const prefix = type.slice(0, -1);
  if (!prefix) return sql`true`;
  return like(events.type, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/** The same test in memory, for waking waiters from a notification without a query. */
export function typeMatches(filter: string | undefined, type: string): boolean {
  if (!filter) return true;
  return filter.endsWith("*") ? type.startsWith(filter.slice(0, -1)) : type === filter;
}
