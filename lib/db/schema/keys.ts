import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { oauthGrants } from "./oauth";
import { owners } from "./owners";
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

/**
 * MCP sessions live in the database so that any instance serves any session. A session belongs to exactly one
 * principal: an API key, an OAuth grant (a token issued for `/mcp`), or the owner's own credentials.
 */
export const mcpSessions = pgTable(
  "mcp_sessions",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    keyId: text("key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    grantId: text("grant_id").references(() => oauthGrants.id, { onDelete: "cascade" }),
    ownerId: text("owner_id").references(() => owners.id, { onDelete: "cascade" }),
    protocolVersion: text("protocol_version").notNull(),
    clientName: text("client_name"),
    clientVersion: text("client_version"),
    /** Set by session_hello; else the X-Brynth-* headers or clientInfo apply. */
    agent: text("agent"),
    platform: text("platform"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Written at most once an hour (loadSession): a session idle for a week is purged (purgeMcpSessions). */
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    endedAt: ts("ended_at"),
  },
  (t) => [
    check("mcp_sessions_principal_check", sql`num_nonnulls(${t.keyId}, ${t.grantId}, ${t.ownerId}) = 1`),
    index("mcp_sessions_last_seen_idx").on(t.lastSeenAt),
    index("mcp_sessions_ended_idx").on(t.endedAt).where(sql`${t.endedAt} is not null`),
    // What deleting or revoking a key, a grant or a project cascades through: without them each key's delete read
    // every session of the instance (2,000 keys × 300,000 sessions made a project's deletion take minutes).
    index("mcp_sessions_key_idx").on(t.keyId).where(sql`${t.keyId} is not null`),
    index("mcp_sessions_grant_idx").on(t.grantId).where(sql`${t.grantId} is not null`),
    index("mcp_sessions_project_idx").on(t.projectId),
  ],
);
export type McpSession = typeof mcpSessions.$inferSelect;
