import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mcpSessions } from "@/lib/db/schema/keys";
import { oauthClients, oauthCodes, oauthGrants, oauthTokens } from "@/lib/db/schema/oauth";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { rawMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { authorizeQuery, basicOwner, connect, decide, pkce, REDIRECT, register, startAuthorize, token } from "./oauth-steps";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let base: string;
const init = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const call = (name: string, args: unknown = {}) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } });
const list = { jsonrpc: "2.0", id: 3, method: "tools/list" };
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const rows = async (table: typeof oauthClients | typeof oauthCodes | typeof oauthGrants) => (await (await getDb()).select({ n: count() }).from(table))[0].n;

beforeAll(async () => {
  server = await startApiServer();
  base = server.url;
  seeded = await seedProject({ name: "OAuth" });
});
afterAll(() => server.close());

describe("discovery", () => {
  it("answers /mcp without a credential with 401 and the protected-resource metadata's address", async () => {
    const res = await rawMcp(base, init);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
  });

  it("publishes RFC 9728 and RFC 8414 metadata, and no OpenID configuration", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const prm = await (await fetch(`${base}${path}`)).json();
      expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ["header"] });
      expect(prm.scopes_supported).toContain("message_read");
    }
    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
    });
    expect(as.token_endpoint_auth_methods_supported).toContain("none");
    expect((await fetch(`${base}/.well-known/openid-configuration`)).status).toBe(404);
  });
});

describe("registration", () => {
  it("refuses http://evil.example and other non-loopback http redirect URIs, writing nothing", async () => {
    const before = await rows(oauthClients);
    for (const uri of [
      "http://evil.example/cb",
      "http://127.0.0.2.evil.example/cb",
      "https://ok.example/cb#frag",
      "https://user@ok.example/cb",
      "javascript:alert(1)",
    ]) {
      const res = await register(base, { redirect_uris: [REDIRECT, uri] });
      expect(res.status, uri).toBe(400);
      expect(res.body.error, uri).toBe("invalid_redirect_uri");
    }
    expect((await register(base, { redirect_uris: [] })).body.error).toBe("invalid_redirect_uri");
    expect(await rows(oauthClients)).toBe(before);
  });

  it("refuses grant types other than the code flow and a body that is not JSON", async () => {
    const res = await register(base, { grant_types: ["client_credentials"] });
    expect(res).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
    expect(res.body.error_description).toContain("grant_types");
    // refresh_token alone: registered before, and then the owner approved a code no exchange would take.
    const noCode = await register(base, { grant_types: ["refresh_token"] });
    expect(noCode).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
    expect(noCode.body.error_description).toContain("authorization_code");
    const raw = await fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(raw.status).toBe(400);
    expect((await raw.json()).error).toBe("invalid_client_metadata");
  });

  it("registers https and loopback clients, public by default, with a hashed secret for confidential ones", async () => {
    const pub = await register(base, { redirect_uris: ["https://app.example/cb", "http://localhost:3333/cb", "http://[::1]:9/cb"] });
    expect(pub.status).toBe(201);
    expect(pub.body.client_id).toMatch(/^oac_/);
    expect(pub.body.token_endpoint_auth_method).toBe("none");
    expect(pub.body).not.toHaveProperty("client_secret");
    const conf = await register(base, { token_endpoint_auth_method: "client_secret_basic" });
    expect(conf.body.client_secret).toMatch(/^ocs_/);
    const [row] = await (await getDb()).select().from(oauthClients).where(eq(oauthClients.id, conf.body.client_id));
    expect(row.clientSecretHash).toHaveLength(64);
    expect(row.clientSecretHash).not.toContain(conf.body.client_secret);
  });
});

describe("authorization request", () => {
  let clientId: string;
  const { challenge } = pkce();
  beforeAll(async () => {
    // A client the owner has let in once: its errors go back to its redirect URI (a new one's are shown here).
    clientId = (await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] })).client.client_id;
  });
  const errorOf = (location: string | null) => {
    const url = new URL(location ?? "about:blank");
    return { to: `${url.origin}${url.pathname}`, error: url.searchParams.get("error"), state: url.searchParams.get("state"), iss: url.searchParams.get("iss") };
  };

  it("sends a good request to the consent page with its query", async () => {
    const q = authorizeQuery(clientId, challenge, { resource: `${base}/mcp` });
    const res = await startAuthorize(base, q);
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/oauth/consent?${q}`);
  });

  it("returns invalid_request to the client for a missing PKCE challenge or the plain method, with the state", async () => {
    for (const extra of [{ code_challenge: null }, { code_challenge_method: "plain" }, { code_challenge_method: null }]) {
      const res = await startAuthorize(base, authorizeQuery(clientId, challenge, extra));
      expect(res.status).toBe(302);
      expect(errorOf(res.location)).toEqual({ to: REDIRECT, error: "invalid_request", state: "st-1", iss: base });
    }
  });

  it("returns invalid_target for another resource and unsupported_response_type for a token request", async () => {
    const other = await startAuthorize(base, authorizeQuery(clientId, challenge, { resource: "https://elsewhere.example/mcp" }));
    expect(errorOf(other.location).error).toBe("invalid_target");
    const implicit = await startAuthorize(base, authorizeQuery(clientId, challenge, { response_type: "token" }));
    expect(errorOf(implicit.location).error).toBe("unsupported_response_type");
  });

  it("shows the errors of a client nobody has let in yet on a page: registering one made /oauth/authorize an open redirector", async () => {
    const fresh = (await register(base, { redirect_uris: ["https://evil.example/landing"] })).body.client_id;
    const redirect_uri = "https://evil.example/landing";
    for (const [extra, error] of [
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ code_challenge: null }, "invalid_request"],
      [{ resource: "https://elsewhere.example/mcp" }, "invalid_target"],
    ] as const) {
      const res = await startAuthorize(base, authorizeQuery(fresh, challenge, { redirect_uri, ...extra }));
      expect(res.status, error).toBe(400);
      expect(res.location, error).toBeNull();
      expect(res.text, error).toContain(`(${error})`);
      expect(res.text, error).not.toContain("evil.example");
    }
    // The owner's decision on such a request goes nowhere either.
    const decided = await decide(base, authorizeQuery(fresh, challenge, { redirect_uri, response_type: "token" }), {
      decision: "approve",
      project_id: seeded.project.id,
      scope: "ledger:read",
    });
    expect(decided.status).toBe(400);
    expect(decided.target).toBeNull();
  });

  it("shows an error page, never a redirect, for an unregistered redirect URI or an unknown client", async () => {
    for (const extra of [{ redirect_uri: "http://127.0.0.1:8976/other" }, { redirect_uri: "https://evil.example/cb" }, { client_id: "oac_nope" }]) {
      const res = await startAuthorize(base, authorizeQuery(clientId, challenge, extra));
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
      expect(res.text).toContain("cannot be used");
    }
  });

  it("takes the owner's decision only from our own origin and with the owner's credentials", async () => {
    const q = authorizeQuery(clientId, challenge);
    const codes = await rows(oauthCodes);
    const foreign = await decide(base, q, { decision: "approve", project_id: seeded.project.id, scope: "ledger:read" }, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    const noOrigin = await fetch(`${base}/oauth/authorize`, {
      method: "POST",
      headers: { authorization: basicOwner, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ request: q.toString(), decision: "approve", project_id: seeded.project.id, scope: "ledger:read" }),
    });
    expect(noOrigin.status).toBe(403);
    const anonymous = await decide(base, q, { decision: "approve", project_id: seeded.project.id, scope: "ledger:read" }, { authorization: "" });
    expect(anonymous.status).toBe(401);
    expect(await rows(oauthCodes)).toBe(codes);
  });

  it("answers a denial with access_denied and the state", async () => {
    const res = await decide(base, authorizeQuery(clientId, challenge), { decision: "deny" });
    expect(res.target?.searchParams.get("error")).toBe("access_denied");
    expect(res.target?.searchParams.get("state")).toBe("st-1");
  });

  it("refuses a mailbox of another project and an empty scope list, naming the field and writing no code", async () => {
    const other = await seedProject({ name: "Other" });
    const foreignBox = await seedMailbox(other.project.id);
    const codes = await rows(oauthCodes);
    const q = authorizeQuery(clientId, challenge);
    const box = await decide(base, q, { decision: "approve", project_id: seeded.project.id, scope: "inbox_read", mailbox_id: foreignBox.id });
    expect(box.status).toBe(400);
    expect(box.text).toContain("mailbox_id");
    const none = await decide(base, q, { decision: "approve", project_id: seeded.project.id });
    expect(none.status).toBe(400);
    expect(none.text).toContain("scopes");
    expect(await rows(oauthCodes)).toBe(codes);
  });
});

describe("token endpoint", () => {
  it("exchanges a code once for an oat_ and an ort_ token, stored only as hashes", async () => {
    const { tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "ledger:read" });
    expect(tokens.access_token).toMatch(/^oat_[0-9A-Za-z]{40}$/);
    expect(tokens.refresh_token).toMatch(/^ort_[0-9A-Za-z]{40}$/);
    const stored = await (await getDb()).select().from(oauthTokens);
    expect(stored.some((t) => t.hash === tokens.access_token || t.hash.includes(tokens.access_token.slice(4)))).toBe(false);
  });

  it("answers a reused code with invalid_grant and revokes what the code produced", async () => {
    const { client, code, verifier, tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    expect((await rawMcp(base, init, bearer(tokens.access_token))).status).toBe(200);
    const again = await token(base, { grant_type: "authorization_code", code, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect(again.headers.get("cache-control")).toBe("no-store");
    const res = await rawMcp(base, init, bearer(tokens.access_token));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refuses a wrong verifier, another redirect URI or client, and another resource", async () => {
    const client = (await register(base)).body;
    const { verifier, challenge } = pkce();
    const q = authorizeQuery(client.client_id, challenge);
    const code = (await decide(base, q, { decision: "approve", project_id: seeded.project.id, scope: "ledger:read" })).target?.searchParams.get("code") ?? "";
    const form = { grant_type: "authorization_code", code, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: verifier };
    const grants = await rows(oauthGrants);
    expect((await token(base, { ...form, code_verifier: pkce().verifier })).body.error).toBe("invalid_grant");
    expect((await token(base, { ...form, redirect_uri: "http://127.0.0.1:8976/other" })).body.error).toBe("invalid_grant");
    expect((await token(base, { ...form, resource: "https://elsewhere.example/mcp" })).body.error).toBe("invalid_target");
    const other = (await register(base)).body;
    expect((await token(base, { ...form, client_id: other.client_id })).body.error).toBe("invalid_grant");
    const unknown = await token(base, { ...form, client_id: "oac_nope" });
    expect(unknown).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect((await token(base, { ...form, grant_type: "password" })).body.error).toBe("unsupported_grant_type");
    expect(await rows(oauthGrants)).toBe(grants);
    // None of that used the code up.
    expect((await token(base, form)).status).toBe(200);
  });

  it("answers HTTP Basic client credentials with a broken percent-escape with invalid_client, not a server error", async () => {
    const client = (await register(base, { token_endpoint_auth_method: "client_secret_basic" })).body;
    for (const pair of [`${client.client_id}:%zz`, `%E0%A4%A:secret`]) {
      const res = await token(
        base,
        { grant_type: "refresh_token", refresh_token: "ort_x" },
        { authorization: `Basic ${Buffer.from(pair).toString("base64")}` },
      );
      expect(res, pair).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    }
  });

  it("rotates refresh tokens, and a reused one revokes the whole grant", async () => {
    const { client, tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const refreshed = await token(base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await rawMcp(base, init, bearer(refreshed.body.access_token))).status).toBe(200);
    const reuse = await token(base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id });
    expect(reuse.body.error).toBe("invalid_grant");
    expect((await rawMcp(base, init, bearer(refreshed.body.access_token))).status).toBe(401);
    const next = await token(base, { grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token, client_id: client.client_id });
    expect(next.body.error).toBe("invalid_grant");
  });

  it("revokes a refresh token's grant at /oauth/revoke (RFC 7009) and answers 200 for unknown tokens", async () => {
    const { client, tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const revoke = (t: string) =>
      fetch(`${base}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: t, client_id: client.client_id }),
      });
    expect((await revoke("ort_unknown")).status).toBe(200);
    expect((await rawMcp(base, init, bearer(tokens.access_token))).status).toBe(200);
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await rawMcp(base, init, bearer(tokens.access_token))).status).toBe(401);
  });
});

describe("/mcp with an access token", () => {
  it("acts as a key with the granted scopes and mailbox: tools/list, whoami, and NOT_FOUND outside the mailbox", async () => {
    const a = await seedMailbox(seeded.project.id);
    const b = await seedMailbox(seeded.project.id);
    const { tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["inbox_read", "message_read"], mailboxId: b.id });
    const tools = (await (await rawMcp(base, list, bearer(tokens.access_token))).json()).result.tools.map((t: { name: string }) => t.name);
    expect(tools).toContain("get_inbox");
    expect(tools).toContain("list_threads");
    expect(tools).not.toContain("send_message");
    expect(tools).not.toContain("ledger_query");
    const own = await (await rawMcp(base, call("get_inbox", { inboxId: b.id }), bearer(tokens.access_token))).json();
    expect(own.result.structuredContent.inboxId ?? own.result.structuredContent.inbox_id).toBe(b.id);
    const other = await (await rawMcp(base, call("get_inbox", { inboxId: a.id }), bearer(tokens.access_token))).json();
    expect(other.result.isError).toBe(true);
    expect(JSON.parse(other.result.content[0].text).code).toBe("NOT_FOUND");
  });

  it("answers a tool outside the grant with 403 insufficient_scope naming the scope", async () => {
    const { tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const res = await rawMcp(base, call("kv_get", { key: "x" }), bearer(tokens.access_token));
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toMatch(/error="insufficient_scope", scope="ledger:read disk"/);
  });

  it("refuses an expired token, a token in the query string, and a token on REST", async () => {
    const { tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const inQuery = await fetch(`${base}/mcp?access_token=${tokens.access_token}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...bearer(tokens.access_token) },
      body: JSON.stringify(init),
    });
    expect(inQuery.status).toBe(401);
    expect(inQuery.headers.get("www-authenticate")).toContain("resource_metadata=");
    const rest = await fetch(`${base}/api/v1/whoami`, { headers: bearer(tokens.access_token) });
    expect(rest.status).toBe(401);
    expect((await rest.json()).error.message).toContain("/mcp only");
    const db = await getDb();
    const { createHash } = await import("node:crypto");
    await db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.hash, createHash("sha256").update(tokens.access_token).digest("hex")));
    const expired = await rawMcp(base, init, bearer(tokens.access_token));
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`);
  });

  it("keeps a grant's session to the grant: a key presenting its id is told it does not exist", async () => {
    const { tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const started = await rawMcp(base, init, bearer(tokens.access_token));
    const sessionId = started.headers.get("mcp-session-id") ?? "";
    const [row] = await (await getDb()).select().from(mcpSessions).where(eq(mcpSessions.id, sessionId));
    expect(row).toMatchObject({ keyId: null, ownerId: null, projectId: seeded.project.id });
    expect(row.grantId).toMatch(/^ogr_/);
    expect((await rawMcp(base, call("whoami"), { ...bearer(tokens.access_token), "mcp-session-id": sessionId })).status).toBe(200);
    expect((await rawMcp(base, call("whoami"), { ...bearer(seeded.secret), "mcp-session-id": sessionId })).status).toBe(404);
  });
});

describe("/mcp with the owner's credentials", () => {
  it("lists every tool and calls them on the project named, in a session of the owner's", async () => {
    const headers = { authorization: basicOwner, "x-brynth-project": seeded.project.id };
    const tools = (await (await rawMcp(base, list, headers)).json()).result.tools.map((t: { name: string }) => t.name);
    for (const name of ["list_inboxes", "send_message", "create_webhook", "ledger_query", "kv_set", "whoami"]) expect(tools).toContain(name);
    for (const ownerOnly of ["keys_create", "keys_revoke", "projects_list"]) expect(tools).not.toContain(ownerOnly);
    const started = await rawMcp(base, init, headers);
    const sessionId = started.headers.get("mcp-session-id") ?? "";
    const [row] = await (await getDb()).select().from(mcpSessions).where(eq(mcpSessions.id, sessionId));
    expect(row).toMatchObject({ keyId: null, grantId: null, ownerId: seeded.owner.id });
    const who = await (await rawMcp(base, call("whoami"), { ...headers, "mcp-session-id": sessionId })).json();
    expect(JSON.stringify(who.result.structuredContent)).toContain(seeded.project.id);
    expect((await rawMcp(base, call("whoami"), { ...bearer(seeded.secret), "mcp-session-id": sessionId })).status).toBe(404);
  });

  it("refuses a wrong password with the 401 challenge, and the cookie from a foreign origin", async () => {
    const wrong = await rawMcp(base, init, { authorization: `Basic ${Buffer.from("owner@example.com:nope-nope-nope").toString("base64")}` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain("resource_metadata=");
    const cookie = await rawMcp(base, init, { cookie: "next-auth.session-token=forged", origin: "http://localhost:9" });
    expect(cookie.status).toBe(403);
  });
});
