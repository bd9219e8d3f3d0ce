import { getDb } from "@/lib/db/client";
import type { ApiRequest } from "@/lib/http/api-request";
import { chargeAuthAttempt } from "@/lib/http/auth-throttle";
import { clientIp } from "@/lib/http/request-info";
import { authenticateClient } from "@/lib/oauth/authenticate-client";
import { NO_STORE, OAuthError, oauthErrorResponse } from "@/lib/oauth/oauth-error";
import { revokeToken } from "@/lib/oauth/revoke-token";
import { readForm, requirePost } from "@/lib/oauth/http/oauth-request";
import { withOauthCors } from "@/lib/oauth/http/oauth-cors";

export const REVOKE_PATH = "/oauth/revoke";

/** RFC 7009 token revocation: 200 whether or not the token existed (§2.2), after the client authenticated. */
export function handleRevoke(req: ApiRequest): Promise<Response> {
  return withOauthCors(req, "POST", async () => {
    const ip = clientIp(req);
    // Charged before the client lookup, refunded unless the client proves wrong (see handle-token.ts).
    let refund = () => {};
    try {
      requirePost(req);
      refund = chargeAuthAttempt(ip);
      const form = await readForm(req);
      const db = await getDb();
      const client = await authenticateClient(db, req.headers.get("authorization"), form);
      const token = form.get("token");
      if (!token) throw new OAuthError("invalid_request", "token is missing.");
      await db.transaction((tx) => revokeToken(tx, { client, token }));
      refund();
      return new Response(null, { status: 200, headers: NO_STORE });
    } catch (err) {
      if (!(err instanceof OAuthError && err.error === "invalid_client")) refund();
      return oauthErrorResponse(err);
    }
  });
}
