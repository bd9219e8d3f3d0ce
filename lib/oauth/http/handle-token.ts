import { getDb } from "@/lib/db/client";
import type { ApiRequest } from "@/lib/http/api-request";
import { chargeAuthAttempt } from "@/lib/http/auth-throttle";
import { jsonResponse } from "@/lib/http/json-response";
import { clientIp } from "@/lib/http/request-info";
import { authenticateClient } from "@/lib/oauth/authenticate-client";
import { clientMayUse } from "@/lib/oauth/client-grant-types";
import { exchangeCode } from "@/lib/oauth/exchange-code";
import { NO_STORE, OAuthError, oauthErrorResponse } from "@/lib/oauth/oauth-error";
import { refreshGrant } from "@/lib/oauth/refresh-grant";
import { readForm, requirePost } from "@/lib/oauth/http/oauth-request";
import { withOauthCors } from "@/lib/oauth/http/oauth-cors";

export const TOKEN_PATH = "/oauth/token";

/**
 * The token endpoint (RFC 6749 §3.2): authorization_code and refresh_token only. Failed client authentication and
 * bad grants count toward the address's throttle, so codes and refresh tokens cannot be guessed at speed.
 */
export function handleToken(req: ApiRequest): Promise<Response> {
  return withOauthCors(req, "POST", async () => {
    const ip = clientIp(req);
    // Charged before the lookups, refunded unless the client or the grant proves wrong: counted only afterwards,
    // every guess sent at once passed the throttle while the first lookups waited.
    let refund = () => {};
    try {
      requirePost(req);
      refund = chargeAuthAttempt(ip);
      const form = await readForm(req);
      const db = await getDb();
      const client = await authenticateClient(db, req.headers.get("authorization"), form);
      const grantType = form.get("grant_type");
      if ((grantType === "authorization_code" || grantType === "refresh_token") && !clientMayUse(client, grantType)) {
        throw new OAuthError("unauthorized_client", `This client registered without the ${grantType} grant type (its grant_types).`);
      }
      const answer = await db.transaction(async (tx) => {
        if (grantType === "authorization_code") {
          return exchangeCode(tx, {
            client,
            code: form.get("code"),
            redirectUri: form.get("redirect_uri"),
            verifier: form.get("code_verifier"),
            resource: form.get("resource"),
          });
        }
        if (grantType === "refresh_token") {
          return refreshGrant(tx, { client, refreshToken: form.get("refresh_token"), scope: form.get("scope"), resource: form.get("resource") });
        }
        throw grantType
          ? new OAuthError("unsupported_grant_type", `grant_type ${grantType} is not supported; use authorization_code or refresh_token.`)
          : new OAuthError("invalid_request", "grant_type is missing.");
      });
      if ("error" in answer) throw answer.error;
      refund();
      return jsonResponse(200, answer.tokens, NO_STORE);
    } catch (err) {
      if (!(err instanceof OAuthError && (err.error === "invalid_client" || err.error === "invalid_grant"))) refund();
      return oauthErrorResponse(err);
    }
  });
}
