import { boolean, check, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { ts } from "../columns";
import { owners } from "./owners";

/**
 * Settings → Remote access: how this instance is reached from outside (design §4 C). Instance-wide, like owners,
 * so it has no project: one row at most (`id` is always true). No row, or a null column, means the environment's
 * value (PUBLIC_URL, ALLOWED_ORIGINS) applies. Read through lib/settings/remote-access.ts only.
 */
export const remoteAccess = pgTable(
  "remote_access",
  {
    id: boolean("id").primaryKey().default(true),
    /** An http(s) origin (scheme, host, port; no path): OAuth issuer, /mcp's resource, attachment links. */
    publicUrl: text("public_url"),
    /** Browser origins allowed besides the public URL's own, added to ALLOWED_ORIGINS. */
    allowedOrigins: jsonb("allowed_origins").$type<string[]>().notNull().default([]),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    /** The owner who saved it last. */
    updatedBy: text("updated_by").references(() => owners.id, { onDelete: "set null" }),
  },
  (t) => [check("remote_access_single_row", sql`${t.id}`)],
);
export type RemoteAccessRow = typeof remoteAccess.$inferSelect;
