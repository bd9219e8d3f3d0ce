import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { unstorableText } from "@/lib/db/storable";
import { oauthClients, type OauthClient } from "@/lib/db/schema/oauth";
import { isScope, type Scope } from "@/lib/keys/scopes";
import { mcpResource } from "@/lib/oauth/oauth-config";
import { redirectUriMatches } from "@/lib/oauth/redirect-uri";
import type { OAuthErrorCode } from "@/lib/oauth/oauth-error";
import { CHALLENGE } from "@/lib/oauth/token-format";

/** A checked authorization request: what the consent page shows and what approving it binds the code to. */
export interface AuthorizeRequest {
  client: OauthClient;
  redirectUri: string;
  /** The request named redirect_uri (rather than relying on the client's only one): the token request must repeat it. */
  redirectUriGiven: boolean;
  state: string | null;
  codeChallenge: string;
  resource: string;
  /** The requested scopes this server knows, to pre-fill the consent form; unknown ones are dropped. */
  scopes: Scope[];
}

/**
 * The two ways an authorization request fails (RFC 6749 §4.1.2.1). While the client or its redirect URI is in doubt
 * nothing may be sent there — the owner sees an error page; after that, errors go back to the client's redirect URI.
 * A registered URI is not yet trusted: anyone may register a client (RFC 7591, open), so until the owner has let the
 * client in once (a code exchanged: `last_used_at`) its errors are shown here too (RFC 9700 §4.11.2). Otherwise
 * `/oauth/authorize?client_id=<own client>&response_type=token` was a link on this instance's name that sent
 * whoever opened it straight on to any site, no click in between: an open redirector for phishing.
 */
export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  | { ok: false; page: string }
  | { ok: false; redirect: string; error: OAuthErrorCode; description: string; state: string | null };

const PARAMS = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method", "resource"];

/** Checks the query of `/oauth/authorize` (also re-checked when the owner's decision is posted). */
export async function checkAuthorizeRequest(db: Executor, query: URLSearchParams): Promise<AuthorizeCheck> {
  for (const p of PARAMS) {
    if (query.getAll(p).length > 1) {
      // Which of the two values the client meant is unknowable, so not even the redirect URI is trusted.
      return { ok: false, page: `${p} is given more than once.` };
    }
    // Before any lookup: a client_id of `%00` failed the client's query as a 500.
    const problem = unstorableText(query.get(p) ?? "");
    if (problem) return { ok: false, page: `${p} must not contain ${problem}.` };
  }
  const clientId = query.get("client_id");
  if (!clientId) return { ok: false, page: "The request names no client (client_id is missing)." };
  const [client] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  if (!client) return { ok: false, page: "The client is not registered here. Ask the application to register again." };
  const asked = query.get("redirect_uri");
  const redirectUri = asked ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : null);
  if (!redirectUri) return { ok: false, page: "The request names no redirect_uri and the client registered several." };
  if (!redirectUriMatches(client.redirectUris, redirectUri)) {
    return { ok: false, page: "The redirect_uri is not one the client registered, so Brynth will not send anything there." };
  }
  const state = query.get("state");
  const fail = (error: OAuthErrorCode, description: string): AuthorizeCheck =>
    client.lastUsedAt ? { ok: false, redirect: redirectUri, error, description, state } : { ok: false, page: `${description} (${error})` };
  if (query.get("response_type") !== "code") return fail("unsupported_response_type", "Only response_type=code is supported.");
  const challenge = query.get("code_challenge");
  if (!challenge) return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.");
  if (query.get("code_challenge_method") !== "S256") return fail("invalid_request", "code_challenge_method must be S256; plain is not accepted.");
  if (!CHALLENGE.test(challenge)) return fail("invalid_request", "code_challenge must be 43 base64url characters (a SHA-256).");
  const resource = query.get("resource") ?? mcpResource();
  if (resource !== mcpResource()) return fail("invalid_target", `resource must be ${mcpResource()}, the only resource tokens are issued for.`);
  if (state !== null && state.length > 1000) return fail("invalid_request", "state is longer than 1000 characters.");
  const scopes = [...new Set((query.get("scope") ?? "").split(" ").filter(isScope))];
  return { ok: true, request: { client, redirectUri, redirectUriGiven: asked !== null, state, codeChallenge: challenge, resource, scopes } };
}

/** The client's redirect URI with the answer's parameters added (its own query is kept, RFC 6749 §3.1.2). */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
