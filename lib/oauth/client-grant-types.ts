import type { OauthClient } from "@/lib/db/schema/oauth";

/**
 * Whether a client registered this grant type (RFC 7591 §2 `grant_types`, kept in its metadata). A client that left
 * out refresh_token said it will not hold a refresh token: it gets none, and the grant is unauthorized_client for
 * it. A registration stored without the field had the default, both.
 */
export function clientMayUse(client: OauthClient, grantType: "authorization_code" | "refresh_token"): boolean {
  const types = client.metadata.grant_types;
  return !Array.isArray(types) || types.includes(grantType);
}
