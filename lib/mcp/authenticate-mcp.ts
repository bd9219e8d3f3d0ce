import { carriesOwnerCredential, ownerPrincipal as sharedOwnerPrincipal } from "@/lib/auth/owner-principal";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { refuseQueryCredentials } from "@/lib/http/query-credentials";
import { clientIp } from "@/lib/http/request-info";
import { authenticateKey } from "@/lib/keys/authenticate-key";
import type { McpPrincipal } from "@/lib/mcp/principal";
import { authenticateAccessToken } from "@/lib/oauth/authenticate-token";
import { resourceMetadataUrl } from "@/lib/oauth/oauth-config";
import { ACCESS_PREFIX } from "@/lib/oauth/token-format";

/**
 * The principal of a `/mcp` request (design T4): `Bearer oat_…` (an OAuth access token issued for /mcp), `Bearer
 * brk_live_…` (an API key), or the owner's own credentials, HTTP Basic or the dashboard cookie, as owner REST accepts
 * them. Every 401 carries the RFC 9728 challenge that starts an MCP client's OAuth discovery. A credential in the URL
 * is refused whatever else the request carries: URLs end up in logs and Referer headers (RFC 6750 §5.3).
 */
export async function authenticateMcp(req: ApiRequest, sessionId: string | null): Promise<McpPrincipal> {
  try {
    refuseQueryCredentials(req.url);
    const authorization = req.headers.get("authorization");
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
    if (bearer?.startsWith(ACCESS_PREFIX)) {
      const { grant, session } = await authenticateAccessToken(bearer, clientIp(req), sessionId);
      return {
        kind: "grant",
        id: grant.id,
        projectId: grant.projectId,
        projectName: grant.projectName,
        name: grant.clientName ?? "OAuth client",
        prefix: ACCESS_PREFIX,
        scopes: grant.tokenScopes,
        mailboxId: grant.mailboxId,
        mailboxDeleted: grant.mailboxDeleted,
        session,
      };
    }
    if (authorization && !/^basic\s/i.test(authorization)) {
      const key = await authenticateKey(authorization, clientIp(req), sessionId);
      return { kind: "key", ...key };
    }
    if (carriesOwnerCredential(req)) return await ownerPrincipal(req);
    throw new AppError("unauthorized", "This endpoint needs a credential.", {
      fix: "Connect with OAuth (an MCP client does it from the URL alone), or send `Authorization: Bearer brk_live_…` with an API key.",
    });
  } catch (err) {
    throw withChallenge(err);
  }
}

/** The owner on /mcp: lib/auth/owner-principal.ts, shared with tool REST (the project, the cookie's Origin rule). */
async function ownerPrincipal(req: ApiRequest): Promise<McpPrincipal> {
  const { owner, sessionId, actor } = await sharedOwnerPrincipal(req, "mcp", "/mcp");
  return {
    kind: "owner",
    id: owner.id,
    projectId: actor.projectId,
    projectName: actor.projectName ?? "",
    name: owner.email,
    prefix: "",
    scopes: actor.scopes,
    mailboxId: null,
    ownerSessionId: sessionId,
  };
}

/** RFC 6750 §3 / RFC 9728 §5.1: a 401 names where the protected-resource metadata is, and why a token failed. */
function withChallenge(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== "unauthorized") return err;
  const oauthError = (err.details as { oauth_error?: string } | undefined)?.oauth_error;
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl()}"${oauthError ? `, error="${oauthError}"` : ""}`;
  return new AppError("unauthorized", err.message, { fix: err.fix, headers: { ...err.headers, "WWW-Authenticate": challenge } });
}

/**
 * RFC 6750 §3.1 for a grant that lacks a tool's scope: 403 `insufficient_scope` naming the scopes that would do, so
 * a client can ask the owner for more (MCP authorization, "scope challenge"). Keys keep the tool-level refusal.
 */
export function insufficientScope(principal: McpPrincipal, tool: string, needed: readonly string[]): AppError {
  const scope = [...new Set([...principal.scopes, ...needed])].join(" ");
  return new AppError("missing_permission", `${tool} needs ${needed.join(", ")}, which this authorization does not grant.`, {
    fix: "Authorize again and let the owner grant the missing scope.",
    headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadataUrl()}"` },
  });
}
