import { and, eq, lt } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { oauthTokens, type OauthGrant } from "@/lib/db/schema/oauth";
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_MS } from "@/lib/oauth/oauth-config";
import { ACCESS_PREFIX, newSecret, REFRESH_PREFIX } from "@/lib/oauth/token-format";

/**
 * A fresh access and refresh token for a grant (RFC 6749 §5.1). The grant's expired tokens go at the same time, so a
 * grant keeps only live rows; rotated refresh tokens stay until they expire, since presenting one is how reuse is seen.
 * `scopes` narrows the access token alone (a refresh that asked for less, §6); the refresh token keeps the grant's.
 * No refresh token for a client that registered without the refresh_token grant type (client-grant-types.ts).
 */
export async function issueTokens(tx: Executor, grant: OauthGrant, scopes: string[] = grant.scopes, withRefresh = true) {
  const narrowed = scopes.length < grant.scopes.length;
  const access = newSecret(ACCESS_PREFIX);
  const refresh = withRefresh ? newSecret(REFRESH_PREFIX) : null;
  const now = Date.now();
  await tx.delete(oauthTokens).where(and(eq(oauthTokens.grantId, grant.id), lt(oauthTokens.expiresAt, new Date(now))));
  await tx
    .insert(oauthTokens)
    .values([
      { hash: access.hash, grantId: grant.id, kind: "access", scopes: narrowed ? scopes : null, expiresAt: new Date(now + ACCESS_TOKEN_TTL_S * 1000) },
      ...(refresh ? [{ hash: refresh.hash, grantId: grant.id, kind: "refresh" as const, expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS) }] : []),
    ]);
  return {
    access_token: access.secret,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_S,
    ...(refresh ? { refresh_token: refresh.secret } : {}),
    scope: scopes.join(" "),
  };
}
