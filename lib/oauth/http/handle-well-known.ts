import { errorResponse, jsonResponse } from "@/lib/http/json-response";
import type { ApiRequest } from "@/lib/http/api-request";
import { AppError } from "@/lib/errors";
import { allScopes } from "@/lib/keys/scopes";
import { mcpResource, oauthIssuer } from "@/lib/oauth/oauth-config";
import { withOauthCors } from "@/lib/oauth/http/oauth-cors";

export const PRM_PATH = "/.well-known/oauth-protected-resource";
export const AS_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const OPENID_PATH = "/.well-known/openid-configuration";

/** Metadata changes only with the public URL; clients may keep it for an hour. */
const CACHE = { "Cache-Control": "public, max-age=3600" };

/**
 * RFC 9728 protected-resource metadata of `/mcp`, at the well-known name with and without the resource's path
 * (clients try `…/oauth-protected-resource/mcp` first, then the root one).
 */
export function handleProtectedResource(req: ApiRequest): Promise<Response> {
  return withOauthCors(req, "GET", async () => {
    if (req.method !== "GET" && req.method !== "HEAD") return errorResponse(new AppError("method_not_allowed", "Use GET."));
    return jsonResponse(
      200,
      {
        resource: mcpResource(),
        authorization_servers: [oauthIssuer()],
        scopes_supported: allScopes,
        bearer_methods_supported: ["header"],
        resource_name: "Brynth MCP",
        resource_documentation: `${oauthIssuer()}/api-keys`,
      },
      CACHE,
    );
  });
}

/** RFC 8414 authorization-server metadata: this instance is its own, small authorization server (design D12). */
export function handleAuthorizationServer(req: ApiRequest): Promise<Response> {
  return withOauthCors(req, "GET", async () => {
    if (req.method !== "GET" && req.method !== "HEAD") return errorResponse(new AppError("method_not_allowed", "Use GET."));
    const issuer = oauthIssuer();
    return jsonResponse(
      200,
      {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        registration_endpoint: `${issuer}/oauth/register`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ["code"],
        response_modes_supported: ["query"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
        revocation_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
        scopes_supported: allScopes,
        authorization_response_iss_parameter_supported: true,
      },
      CACHE,
    );
  });
}

/** Clients probe OpenID discovery too; this is no OpenID provider, and says so with a plain 404. */
export function handleOpenidConfiguration(req: ApiRequest): Promise<Response> {
  return withOauthCors(req, "GET", async () =>
    errorResponse(new AppError("not_found", "This server is not an OpenID provider; see /.well-known/oauth-authorization-server.")),
  );
}
