import { createHash, randomBytes } from "node:crypto";
import { OWNER_EMAIL, OWNER_PASSWORD } from "@/lib/testing/seed";

/** The protocol steps a client and the owner take, over real HTTP, for tests of the authorization server. */
export const REDIRECT = "http://127.0.0.1:8976/callback";
export const basicOwner = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function register(base: string, body: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Test client", redirect_uris: [REDIRECT], ...body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string | null | undefined> = {}) {
  const q = new URLSearchParams();
  const all: Record<string, string | null | undefined> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st-1",
    scope: "ledger:read inbox_read message_read",
    ...extra,
  };
  for (const [k, v] of Object.entries(all)) if (v !== null && v !== undefined) q.set(k, v);
  return q;
}

/** GET /oauth/authorize without following redirects: where the browser would go next. */
export async function startAuthorize(base: string, query: URLSearchParams) {
  const res = await fetch(`${base}/oauth/authorize?${query}`, { redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

/** The owner's decision, posted as the consent page's form does (Basic instead of the cookie). */
export async function decide(base: string, query: URLSearchParams, form: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams({ request: query.toString() });
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  const res = await fetch(`${base}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { authorization: basicOwner, origin: base, "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
  const text = await res.text();
  const target = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(text)?.[1]?.replace(/&amp;/g, "&");
  return { status: res.status, text, target: target ? new URL(target) : null };
}

export async function token(base: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

/** Register, approve (as the owner, for `projectId`) and exchange: a client's first tokens. */
export async function connect(base: string, opts: { projectId: string; scopes: string[]; mailboxId?: string }) {
  const client = (await register(base)).body;
  const { verifier, challenge } = pkce();
  const query = authorizeQuery(client.client_id, challenge, { resource: `${base}/mcp` });
  const approved = await decide(base, query, { decision: "approve", project_id: opts.projectId, scope: opts.scopes, mailbox_id: opts.mailboxId ?? "" });
  const code = approved.target?.searchParams.get("code");
  if (!code) throw new Error(`no code: ${approved.status} ${approved.text}`);
  const tokens = await token(base, {
    grant_type: "authorization_code",
    code,
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: `${base}/mcp`,
  });
  return { client, code, verifier, tokens: tokens.body };
}
