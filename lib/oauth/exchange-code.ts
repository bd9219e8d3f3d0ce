import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { oauthClients, oauthCodes, oauthGrants, type OauthClient } from "@/lib/db/schema/oauth";
import { newId } from "@/lib/ids";
import { clientMayUse } from "@/lib/oauth/client-grant-types";
import { issueTokens } from "@/lib/oauth/issue-tokens";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { revokeGrantForClient } from "@/lib/oauth/revoke-grant-for-client";
import { hashSecret, s256, VERIFIER } from "@/lib/oauth/token-format";

type Answer = { tokens: Awaited<ReturnType<typeof issueTokens>> } | { error: OAuthError };

/** The ledger op of a grant the server revoked because its authorization code came back. */
export const CODE_REUSE_OP = "oauth.code_reuse";

/**
 * grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707 §2.2). The code row is locked, so two
 * exchanges of one code serialise: the first gets tokens, the second finds it used. A used code presented again means
 * it leaked (§4.1.2): the grant it produced is revoked, and that revocation commits with the error, which is returned
 * rather than thrown for that reason.
 */
export async function exchangeCode(
  tx: Executor,
  opts: { client: OauthClient; code: string | undefined; redirectUri: string | undefined; verifier: string | undefined; resource: string | undefined },
): Promise<Answer> {
  if (!opts.code) return fail("invalid_request", "code is missing.");
  if (!opts.verifier) return fail("invalid_request", "code_verifier is missing: PKCE is required.");
  const [code] = await tx
    .select()
    .from(oauthCodes)
    .where(eq(oauthCodes.codeHash, hashSecret(opts.code)))
    .for("update");
  if (!code || code.clientId !== opts.client.id) return fail("invalid_grant", "The code is unknown, or was issued to another client.");
  if (code.usedAt) {
    // The project's ledger records the refusal that ended a grant (a code seen twice has leaked).
    if (code.grantId) {
      await revokeGrantForClient(tx, {
        projectId: code.projectId,
        grantId: code.grantId,
        op: CODE_REUSE_OP,
        output: { error: "invalid_grant", grant_revoked: true },
      });
    }
    return fail("invalid_grant", "The code was already used; the tokens issued for it are revoked.");
  }
  if (code.expiresAt.getTime() <= Date.now()) return fail("invalid_grant", "The code expired (codes last 10 minutes).");
  // Required, and identical, when the authorization request named one (RFC 6749 §4.1.3); otherwise the client's only
  // registered URI was used, and the token request may omit it or name that one.
  if (code.redirectUriGiven ? opts.redirectUri !== code.redirectUri : opts.redirectUri !== undefined && opts.redirectUri !== code.redirectUri) {
    return fail(
      "invalid_grant",
      code.redirectUriGiven && opts.redirectUri === undefined
        ? "redirect_uri is missing: the authorization request named one, so the token request must repeat it."
        : "redirect_uri differs from the one of the authorization request.",
    );
  }
  if (!VERIFIER.test(opts.verifier) || s256(opts.verifier) !== code.codeChallenge) {
    return fail("invalid_grant", "code_verifier does not match the code_challenge.");
  }
  if (opts.resource !== undefined && opts.resource !== code.resource) {
    return fail("invalid_target", `The code was issued for ${code.resource}, not ${opts.resource}.`);
  }
  const [grant] = await tx
    .insert(oauthGrants)
    .values({
      id: newId("ogr"),
      projectId: code.projectId,
      ownerId: code.ownerId,
      clientId: code.clientId,
      scopes: code.scopes,
      mailboxId: code.mailboxId,
      resource: code.resource,
    })
    .returning();
  await tx.update(oauthCodes).set({ usedAt: new Date(), grantId: grant.id }).where(eq(oauthCodes.codeHash, code.codeHash));
  await tx.update(oauthClients).set({ lastUsedAt: sql`now()` }).where(eq(oauthClients.id, code.clientId));
  return { tokens: await issueTokens(tx, grant, grant.scopes, clientMayUse(opts.client, "refresh_token")) };
}

const fail = (error: OAuthError["error"], description: string): Answer => ({ error: new OAuthError(error, description) });
