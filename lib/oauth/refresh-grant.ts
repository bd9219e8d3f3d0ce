import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { oauthGrants, oauthTokens, type OauthClient } from "@/lib/db/schema/oauth";
import { issueTokens } from "@/lib/oauth/issue-tokens";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { revokeGrantForClient } from "@/lib/oauth/revoke-grant-for-client";
import { hashSecret } from "@/lib/oauth/token-format";

type Answer = { tokens: Awaited<ReturnType<typeof issueTokens>> } | { error: OAuthError };

/** The ledger op of a grant the server revoked because a rotated refresh token came back. */
export const REFRESH_REUSE_OP = "oauth.refresh_reuse";

/**
 * grant_type=refresh_token with rotation (OAuth 2.1 §4.3.1): the token presented is marked rotated and a new pair is
 * issued. A rotated token presented again means two parties hold it, and the server cannot tell which is the client:
 * the whole grant is revoked and the project's ledger records it (committed with the error, hence returned, not
 * thrown). The row lock makes two concurrent refreshes with one token serialise, so only one of them can win.
 * A `scope` narrows the new access token to those scopes (RFC 6749 §6); one the grant lacks is `invalid_scope`.
 */
export async function refreshGrant(
  tx: Executor,
  opts: { client: OauthClient; refreshToken: string | undefined; scope: string | undefined; resource: string | undefined },
): Promise<Answer> {
  if (!opts.refreshToken) return fail("invalid_request", "refresh_token is missing.");
  const [row] = await tx
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(and(eq(oauthTokens.hash, hashSecret(opts.refreshToken)), eq(oauthTokens.kind, "refresh")))
    .for("update", { of: oauthTokens });
  if (!row || row.grant.clientId !== opts.client.id || row.grant.revokedAt) {
    return fail("invalid_grant", "The refresh token is unknown, revoked, or was issued to another client.");
  }
  if (row.token.rotatedAt) {
    // The row check above saw the grant live, so it is this call that ends it.
    await revokeGrantForClient(tx, {
      projectId: row.grant.projectId,
      grantId: row.grant.id,
      op: REFRESH_REUSE_OP,
      input: { rotated_at: row.token.rotatedAt.toISOString() },
      output: { error: "invalid_grant", grant_revoked: true },
    });
    return fail("invalid_grant", "The refresh token was already used: the grant is revoked. Authorize again.");
  }
  if (row.token.expiresAt.getTime() <= Date.now()) return fail("invalid_grant", "The refresh token expired. Authorize again.");
  if (opts.resource !== undefined && opts.resource !== row.grant.resource) {
    return fail("invalid_target", `The grant is for ${row.grant.resource}, not ${opts.resource}.`);
  }
  const asked = [...new Set(opts.scope?.split(" ").filter(Boolean) ?? [])];
  const extra = asked.filter((s) => !row.grant.scopes.includes(s));
  if (extra.length) return fail("invalid_scope", `Not granted: ${extra.join(", ")}. Ask the owner for a new authorization.`);
  await tx.update(oauthTokens).set({ rotatedAt: new Date() }).where(eq(oauthTokens.hash, row.token.hash));
  // No scope (or an empty one) is the grant's whole scope (§6); the grant's order is kept either way.
  const scopes = asked.length ? row.grant.scopes.filter((s) => asked.includes(s)) : row.grant.scopes;
  return { tokens: await issueTokens(tx, row.grant, scopes) };
}

const fail = (error: OAuthError["error"], description: string): Answer => ({ error: new OAuthError(error, description) });
