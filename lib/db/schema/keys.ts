import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { projects } from "./projects";

/** API keys. The secret is never stored: only its SHA-256 (`hash`) and a display prefix. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** First characters of the key, e.g. `brk_live_Ab3x`, to recognise it in lists. */
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull().unique(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** Restricts the mailbox tools to one mailbox when set. */
    mailboxId: text("mailbox_id"),
    createdBy: text("created_by"),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    ...timestamps,
  },
  (t) => [index("api_keys_project_idx").on(t.projectId)],
);
export type ApiKey = typeof apiKeys.$inferSelect;

/** MCP sessions live in the database so that any instance serves any session. */
export const mcpSessions = pgTable("mcp_sessions", {
  id: text("id").primaryKey(),
  projectId: text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  keyId: text("key_id")
    .notNull()
    .references(() => apiKeys.id, { onDelete: "cascade" }),
  protocolVersion: text("protocol_version").notNull(),
  clientName: text("client_name"),
  clientVersion: text("client_version"),
  /** Set by session_hello; else the X-Brynth-* headers or clientInfo apply. */
  agent: text("agent"),
  platform: text("platform"),
  createdAt: ts("created_at").notNull().defaultNow(),
  endedAt: ts("ended_at"),
});
export type McpSession = typeof mcpSessions.$inferSelect;
