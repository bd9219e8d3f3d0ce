import { index, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";

/** People who sign in to the dashboard. Instance-level: owners are not a project's. */
export const owners = pgTable("owners", {
  id: text("id").primaryKey(),
  /** Lower-cased at write time; unique. */
  email: text("email").notNull().unique(),
  /** argon2id PHC string. */
  passwordHash: text("password_hash").notNull(),
  ...timestamps,
});
export type Owner = typeof owners.$inferSelect;

/** Dashboard sign-ins. The JWT carries the id; a revoked or missing row ends the session at once. */
export const ownerSessions = pgTable(
  "owner_sessions",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("owner_sessions_owner_idx").on(t.ownerId)],
);
export type OwnerSession = typeof ownerSessions.$inferSelect;

/** One-time setup links printed at first start; only the SHA-256 of the token is kept. */
export const setupTokens = pgTable("setup_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: ts("created_at").notNull().defaultNow(),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
});
