import { createHash, randomBytes } from "node:crypto";

/**
 * An access token for /mcp the way an MCP client gets one: registration, authorization with PKCE S256 (approved with
 * the owner's Basic credentials, as the consent page's form posts it), and the code exchange.
 */
export async function oauthAccessToken(base: string, owner: string, projectId: string, scopes: string[]): Promise<string> {
  const redirect = "http://127.0.0.1:9/callback";
  const client = await (
    await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "bench", redirect_uris: [redirect] }),
    })
  ).json();
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirect,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  });
  const decision = await fetch(`${base}/oauth/authorize`, {
    method: "POST",
    headers: { authorization: owner, origin: base, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams([["request", query.toString()], ["decision", "approve"], ["project_id", projectId], ...scopes.map((s) => ["scope", s])]),
  });
  const back = /url=([^"]+)"/.exec(await decision.text())?.[1]?.replace(/&amp;/g, "&");
  const code = back && new URL(back).searchParams.get("code");
  if (!code) throw new Error(`no code (${decision.status})`);
  const tokens = await (
    await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, client_id: client.client_id, redirect_uri: redirect, code_verifier: verifier }),
    })
  ).json();
  if (!tokens.access_token) throw new Error(`token: ${JSON.stringify(tokens)}`);
  return tokens.access_token;
}
