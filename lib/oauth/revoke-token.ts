import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { oauthGrants, oauthTokens, type OauthClient } from "@/lib/db/schema/oauth";
import { revokeGrantForClient } from "@/lib/oauth/revoke-grant-for-client";
import { grantTokenCache } from "@/lib/oauth/token-cache";
import { hashSecret } from "@/lib/oauth/token-format";

/**
 * RFC 7009: a client revokes one of its own tokens. A refresh token takes its grant with it (§2.1: the access tokens
 * of the same grant should go too); an access token goes alone. Unknown tokens, and other clients' tokens, change
 * nothing and are answered alike, so a caller learns nothing about tokens it does not hold.
 */
export const CLIENT_REVOKE_OP = "oauth.client_revoke";

export async function revokeToken(tx: Executor, opts: { client: OauthClient; token: string }): Promise<void> {
  const [row] = await tx
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.hash, hashSecret(opts.token)));
  if (!row || row.grant.clientId !== opts.client.id) return;
  if (row.token.kind === "refresh") {
    await revokeGrantForClient(tx, { projectId: row.grant.projectId, grantId: row.grant.id, op: CLIENT_REVOKE_OP, output: { grant_revoked: true } });
    return;
  }
  await tx.delete(oauthTokens).where(eq(oauthTokens.hash, row.token.hash));
  grantTokenCache.invalidate(tx);
}
