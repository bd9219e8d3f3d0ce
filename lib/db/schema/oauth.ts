import { boolean, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "../columns";
import { owners } from "./owners";
import { projects } from "./projects";

/**
 * OAuth 2.1 for `/mcp` (design D12): clients registered dynamically (RFC 7591), one-time authorization codes with
 * PKCE S256, and grants the owner approved on the consent page. Tokens are stored only as SHA-256 hashes and only
 * ever authenticate `/mcp` (their `resource`).
 */
export const oauthClients = pgTable("oauth_clients", {
  /** The public `client_id` (`oac_…`). */
  id: text("id").primaryKey(),
  clientName: text("client_name"),
  /** https, or http on a loopback host (RFC 8252); matched exactly. */
  redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
  /** `none` for public clients (PKCE only); else the secret's hash for `client_secret_post`/`_basic`. */
  tokenEndpointAuthMethod: text("token_endpoint_auth_method").notNull().default("none"),
  clientSecretHash: text("client_secret_hash"),
  /** The rest of the registration metadata as sent (client_uri, logo_uri, software_id…), for the owner's screens. */
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts("created_at").notNull().defaultNow(),
  lastUsedAt: ts("last_used_at"),
});
export type OauthClient = typeof oauthClients.$inferSelect;

/** An authorization code (10 minutes, single use), bound to its client, redirect URI, PKCE challenge and resource. */
export const oauthCodes = pgTable("oauth_codes", {
  codeHash: text("code_hash").primaryKey(),
  clientId: text("client_id")
    .notNull()
    .references(() => oauthClients.id, { onDelete: "cascade" }),
  projectId: text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  ownerId: text("owner_id")
    .notNull()
    .references(() => owners.id, { onDelete: "cascade" }),
  scopes: jsonb("scopes").$type<string[]>().notNull(),
  mailboxId: text("mailbox_id"),
  redirectUri: text("redirect_uri").notNull(),
  /** Whether the authorization request named redirect_uri: only then must the token request repeat it (RFC 6749 §4.1.3). */
  redirectUriGiven: boolean("redirect_uri_given").notNull().default(true),
  codeChallenge: text("code_challenge").notNull(),
  resource: text("resource").notNull(),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
  /** The grant the code was exchanged for: a reused code revokes it (RFC 6749 §4.1.2). */
  grantId: text("grant_id"),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** What the owner approved for one client on one project: the scopes, an optional mailbox, and its tokens. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    /** `ogr_…` */
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    mailboxId: text("mailbox_id"),
    resource: text("resource").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("oauth_grants_project_idx").on(t.projectId)],
);
export type OauthGrant = typeof oauthGrants.$inferSelect;

/**
 * Access (`oat_…`, 1 hour) and refresh (`ort_…`, 30 days, rotated on use) tokens of a grant, by hash. A refresh
 * token presented after it was rotated (`rotated_at`) is reuse: the whole grant is revoked.
 */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    hash: text("hash").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"access" | "refresh">().notNull(),
    /** An access token a refresh narrowed (RFC 6749 §6): its scopes, a subset of the grant's; null = the grant's. */
    scopes: jsonb("scopes").$type<string[]>(),
    expiresAt: ts("expires_at").notNull(),
    rotatedAt: ts("rotated_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("oauth_tokens_grant_idx").on(t.grantId), index("oauth_tokens_expires_idx").on(t.expiresAt)],
);
export type OauthToken = typeof oauthTokens.$inferSelect;
