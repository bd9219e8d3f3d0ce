import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { rawMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { authorizeQuery, basicOwner, connect, decide, pkce, REDIRECT, register, token } from "./oauth-steps";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "OAuth scope and denials" });
});
afterAll(() => server.close());

const tools = async (accessToken: string) => {
  const res = await rawMcp(server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: `Bearer ${accessToken}` });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { tools: { name: string }[] } };
  return body.result.tools.map((t) => t.name);
};
const refresh = (clientId: string, refreshToken: string, scope?: string) =>
  token(server.url, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, ...(scope === undefined ? {} : { scope }) });
const entry = (op: string) => lastLedgerEntry(seeded.project.id, op);

describe("refresh narrows scope (RFC 6749 §6)", () => {
  it("issues an access token with only the scopes asked for, keeps the grant's for the next refresh, and refuses more with invalid_scope", async () => {
    const { client, tokens } = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read", "disk"] });
    expect(await tools(tokens.access_token)).toEqual(expect.arrayContaining(["ledger_query", "kv_get"]));

    const narrowed = await refresh(client.client_id, tokens.refresh_token, "ledger:read");
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("ledger:read");
    const narrowTools = await tools(narrowed.body.access_token);
    expect(narrowTools).toContain("ledger_query");
    expect(narrowTools).not.toContain("kv_get");

    // A scope the grant lacks: invalid_scope, and the refresh token is not spent by the refusal.
    const wider = await refresh(client.client_id, narrowed.body.refresh_token, "ledger:read inbox_read");
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe("invalid_scope");
    expect(wider.body.error_description).toContain("inbox_read");

    // Without a scope the whole grant comes back: the refresh token kept the grant's scope.
    const whole = await refresh(client.client_id, narrowed.body.refresh_token);
    expect(whole.status).toBe(200);
    expect(whole.body.scope).toBe("ledger:read disk");
    expect(await tools(whole.body.access_token)).toContain("kv_get");
  });
});

describe("a client registered without the refresh_token grant type", () => {
  it("gets no refresh token, and a refresh_token grant is unauthorized_client", async () => {
    const client = (await register(server.url, { grant_types: ["authorization_code"] })).body;
    const { verifier, challenge } = pkce();
    const approved = await decide(server.url, authorizeQuery(client.client_id, challenge), {
      decision: "approve",
      project_id: seeded.project.id,
      scope: "ledger:read",
    });
    const code = approved.target?.searchParams.get("code") ?? "";
    const exchanged = await token(server.url, {
      grant_type: "authorization_code",
      code,
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).not.toHaveProperty("refresh_token");
    expect(await tools(exchanged.body.access_token)).toContain("ledger_query");
    // Another client's refresh token, presented by this one: refused for the grant type before the token is looked at.
    const other = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const refused = await refresh(client.client_id, other.tokens.refresh_token);
    expect(refused).toMatchObject({ status: 400, body: { error: "unauthorized_client" } });
    expect(refused.body.error_description).toContain("refresh_token");
  });
});

describe("OAuth denials in the ledger", () => {
  it("records the owner's denial on the consent page, by the owner, naming the client", async () => {
    const client = (await register(server.url)).body;
    const res = await decide(server.url, authorizeQuery(client.client_id, pkce().challenge), { decision: "deny", project_id: seeded.project.id });
    expect(res.target?.searchParams.get("error")).toBe("access_denied");
    const denied = await entry("oauth.deny");
    expect(denied).toMatchObject({ subject: client.client_id, actorType: "owner", actorId: seeded.owner.id });
  });

  it("records the grant a reused refresh token revoked, and the one a reused code revoked, as the system's act naming the client", async () => {
    const first = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const rotated = await refresh(first.client.client_id, first.tokens.refresh_token);
    expect(rotated.status).toBe(200);
    const reuse = await refresh(first.client.client_id, first.tokens.refresh_token);
    expect(reuse.body.error).toBe("invalid_grant");
    expect((await rawMcp(server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: `Bearer ${rotated.body.access_token}` })).status).toBe(
      401,
    );
    const reuseEntry = await entry("oauth.refresh_reuse");
    expect(reuseEntry).toMatchObject({ actorType: "system", agent: `oauth:${first.client.client_id}` });
    expect(reuseEntry?.subject).toMatch(/^ogr_/);

    const second = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const again = await token(server.url, {
      grant_type: "authorization_code",
      code: second.code,
      client_id: second.client.client_id,
      redirect_uri: REDIRECT,
      code_verifier: second.verifier,
    });
    expect(again.body.error).toBe("invalid_grant");
    const codeEntry = await entry("oauth.code_reuse");
    expect(codeEntry).toMatchObject({ actorType: "system", agent: `oauth:${second.client.client_id}` });
    expect(codeEntry?.subject).not.toBe(reuseEntry?.subject);
  });

  it("records a grant the client revoked with its refresh token (RFC 7009), and one the owner revoked", async () => {
    const byClient = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const revoked = await fetch(`${server.url}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: byClient.tokens.refresh_token, client_id: byClient.client.client_id }),
    });
    expect(revoked.status).toBe(200);
    expect(await entry("oauth.client_revoke")).toMatchObject({ actorType: "system", agent: `oauth:${byClient.client.client_id}` });

    const byOwner = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    const grants = await fetch(`${server.url}/api/v1/owner/oauth/grants`, { headers: { authorization: basicOwner, "x-brynth-project": seeded.project.id } });
    const grant = ((await grants.json()) as { grants: { id: string; client_id: string }[] }).grants.find((g) => g.client_id === byOwner.client.client_id);
    const res = await fetch(`${server.url}/api/v1/owner/oauth/grants/${grant?.id}`, {
      method: "DELETE",
      headers: { authorization: basicOwner, "x-brynth-project": seeded.project.id },
    });
    expect(res.status).toBe(200);
    expect(await entry("oauth.revoke")).toMatchObject({ subject: grant?.id, actorType: "owner" });
  });
});
