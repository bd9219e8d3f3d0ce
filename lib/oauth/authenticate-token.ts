import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mcpSessions, type McpSession } from "@/lib/db/schema/keys";
import { mailboxes } from "@/lib/db/schema/mail";
import { oauthClients, oauthGrants, oauthTokens } from "@/lib/db/schema/oauth";
import { projects } from "@/lib/db/schema/projects";
import { AppError } from "@/lib/errors";
import { checkAuthThrottle, noteAuthFailure } from "@/lib/http/auth-throttle";
import { chargedLookup } from "@/lib/http/charged-lookup";
import { sessionCache } from "@/lib/keys/auth-cache";
import { mailboxGone } from "@/lib/keys/key-restrictions";
import { mcpResource } from "@/lib/oauth/oauth-config";
import { grantTokenCache, type CachedGrantToken } from "@/lib/oauth/token-cache";
import { hashSecret, looksLikeAccessToken } from "@/lib/oauth/token-format";

/** last_used_at is written at most once a minute per grant, off the request's path (as for keys). */
const LAST_USED_EVERY_MS = 60_000;

/** RFC 6750 §3.1: a presented token that is not good is `invalid_token`; the caller adds resource_metadata. */
export const invalidToken = (why: string) =>
  new AppError("unauthorized", `Invalid OAuth access token: ${why}`, {
    fix: "Refresh the token at /oauth/token, or authorize again; OAuth tokens work on /mcp only.",
    details: { oauth_error: "invalid_token" },
  });

/**
 * An `oat_…` access token to its grant, by hash, with the MCP session row in the same query (as authenticateKey does
 * for keys). Refused: unknown, expired, a revoked grant, or a grant for another resource than this `/mcp` (the
 * audience check of RFC 8707: a PUBLIC_URL change invalidates every token). Cached like keys: a revocation empties
 * every instance's cache on commit.
 */
export async function authenticateAccessToken(
  secret: string,
  clientIp: string,
  sessionId: string | null,
): Promise<{ grant: CachedGrantToken; session?: McpSession | null }> {
  checkAuthThrottle(clientIp);
  if (!looksLikeAccessToken(secret)) {
    noteAuthFailure(clientIp);
    throw invalidToken("not an access token.");
  }
  const hash = hashSecret(secret);
  const db = await getDb();
  let grant = grantTokenCache.get(hash);
  let session: McpSession | null | undefined = sessionId ? sessionCache.get(sessionId) : undefined;
  if (!grant || (sessionId && !session)) {
    const epochs = [grantTokenCache.epoch(), sessionCache.epoch()];
    const [row] = await chargedLookup(
      clientIp,
      `oat:${hash}:${sessionId ?? ""}`,
      () =>
        db
          .select({
            grant: oauthGrants,
            expiresAt: oauthTokens.expiresAt,
            tokenScopes: oauthTokens.scopes,
            projectName: projects.name,
            clientName: oauthClients.clientName,
            mailboxDeleted: mailboxGone,
            session: mcpSessions,
          })
          .from(oauthTokens)
          .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
          .innerJoin(projects, eq(projects.id, oauthGrants.projectId))
          .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
          .leftJoin(mailboxes, eq(mailboxes.id, oauthGrants.mailboxId))
          .leftJoin(mcpSessions, and(eq(mcpSessions.id, sessionId ?? ""), sql`${sessionId ?? null}::text is not null`))
          .where(and(eq(oauthTokens.hash, hash), eq(oauthTokens.kind, "access"))),
      (rows) => rows.length > 0,
    );
    // A narrowed token never carries more than its grant, whatever its row says.
    const tokenScopes = row && (row.tokenScopes ? row.tokenScopes.filter((s) => row.grant.scopes.includes(s)) : row.grant.scopes);
    grant = row && {
      ...row.grant,
      projectName: row.projectName,
      clientName: row.clientName,
      tokenExpiresAt: row.expiresAt,
      tokenScopes,
      mailboxDeleted: row.mailboxDeleted,
    };
    session = row?.session;
    if (grant && !grant.revokedAt) {
      grantTokenCache.set(epochs[0], hash, grant);
      if (row.session) sessionCache.set(epochs[1], row.session.id, row.session);
    }
  }
  const problem = !grant
    ? "unknown or revoked."
    : grant.revokedAt
      ? "the grant was revoked."
      : grant.tokenExpiresAt.getTime() <= Date.now()
        ? "expired."
        : grant.resource !== mcpResource()
          ? `issued for ${grant.resource}, not ${mcpResource()}.`
          : null;
  // An unknown token was charged to the address by chargedLookup. An expired or revoked one is a real token, not a
  // guess: a client that has not refreshed yet must not throttle its neighbours.
  if (problem || !grant) throw invalidToken(problem ?? "unknown.");
  const now = Date.now();
  if (!grant.lastUsedAt || now - grant.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    grant.lastUsedAt = new Date(now);
    db.update(oauthGrants)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(oauthGrants.id, grant.id))
      .catch((err) => console.error("[brynth] grant last_used_at update failed", err));
  }
  return { grant, session };
}
