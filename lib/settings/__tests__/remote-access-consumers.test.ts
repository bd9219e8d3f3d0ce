import type { IncomingMessage } from "node:http";
import { request } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { oauthClients } from "@/lib/db/schema/oauth";
import { linkUrl } from "@/lib/disk/blob-urls";
import { isForeignServerAction } from "@/lib/http/action-origin";
import { attachmentUrl, readAttachmentToken } from "@/lib/mail/attachments/attachment-url";
import { authorizeQuery, decide, pkce, REDIRECT, register, startAuthorize, token } from "@/lib/oauth/__tests__/oauth-steps";
import { namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { hookUrl } from "@/lib/sources/hook-token";
import { rawMcp } from "@/lib/testing/mcp-client";

/**
 * Settings → Remote access over owner REST, and every consumer that must follow it: the OAuth metadata, the
 * resource and consent-origin checks, /mcp's challenge, CORS, the Host check, server actions' Origin check and the
 * origin get_attachment's capabilities are bound to. The saved public URL here is the same server under another
 * loopback name, so requests at either name reach it.
 */
let c: Awaited<ReturnType<typeof ownerClient>>;
let renamed: string;
const AGENTS = "https://agents.example.com";

beforeAll(async () => {
  c = await ownerClient("Remote access");
  renamed = c.server.url.replace("127.0.0.1", "localhost");
});
afterAll(() => c.server.close());

const json = async (path: string) => (await fetch(`${c.server.url}${path}`)).json();
const put = (body: unknown) => c.call("PUT", "/owner/settings/remote-access", body);
const preflight = (origin: string) =>
  fetch(`${c.server.url}/mcp`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
  });

/** A GET with exactly this Host (fetch sets its own). */
function getWithHost(path: string, host: string) {
  return new Promise<number>((resolve, reject) => {
    const url = new URL(c.server.url);
    const req = request({ host: url.hostname, port: url.port, path, setHost: false, headers: { host } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

const serverAction = (origin: string) =>
  ({ method: "POST", headers: { "next-action": "abc", origin, host: new URL(c.server.url).host } }) as unknown as IncomingMessage;

/** Register, approve with the consent POST sent from `origin`, and exchange the code for `resource`. */
async function authorize(origin: string, resource: string) {
  const client = (await register(c.server.url)).body;
  const { verifier, challenge } = pkce();
  const query = authorizeQuery(client.client_id, challenge, { resource, scope: "ledger:read" });
  const approved = await decide(c.server.url, query, { decision: "approve", project_id: c.seeded.project.id, scope: ["ledger:read"] }, { origin });
  const code = approved.target?.searchParams.get("code");
  if (!code) return { status: approved.status, text: approved.text };
  const tokens = await token(c.server.url, {
    grant_type: "authorization_code",
    code,
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource,
  });
  return { status: approved.status, text: approved.text, token: tokens.body.access_token };
}

describe("Settings → Remote access", () => {
  it("shows PUBLIC_URL until something is saved, and refuses bad input naming the field, saving nothing", async () => {
    expect((await c.call("GET", "/owner/settings/remote-access")).body).toEqual({
      public_url: null,
      allowed_origins: [],
      effective_public_url: c.server.url,
      env_public_url: c.server.url,
      effective_allowed_origins: [],
      updated_at: null,
    });
    for (const bad of [
      { public_url: "https://brynth.example.com/app", allowed_origins: [] },
      { public_url: "ftp://brynth.example.com", allowed_origins: [] },
    ]) {
      const res = await put(bad);
      expect(res.status).toBe(400);
      expect(namesFields(res.body, ["public_url"])).toBe(true);
    }
    const badOrigin = await put({ public_url: null, allowed_origins: [AGENTS, "https://x.example/path"] });
    expect(badOrigin.status).toBe(400);
    expect(namesFields(badOrigin.body, ["allowed_origins.1"])).toBe(true);
    expect((await c.call("GET", "/owner/settings/remote-access")).body.updated_at).toBeNull();
    expect(await c.entry("settings.remote_access")).toBeUndefined();
    // Saved as read (never saved: null), then again from that stale read: the second would put back what the first
    // changed (the Settings form sends every field), so it is CONFLICT and the first stays.
    const first = await put({ public_url: null, allowed_origins: [AGENTS], updated_at: null });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const stale = await put({ public_url: null, allowed_origins: [], updated_at: null });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe(`Remote access was saved again (${first.body.updated_at}) since it was read: nothing was saved.`);
    expect((await c.call("GET", "/owner/settings/remote-access")).body.allowed_origins).toEqual([AGENTS]);
    // Not a time: refused naming the field, not answered "saved again since" (found by helper-101).
    for (const updated_at of ["garbage", "9999-99-99"]) {
      const bad = await put({ public_url: null, allowed_origins: [], updated_at });
      expect(bad.status).toBe(400);
      expect(namesFields(bad.body, ["updated_at"])).toBe(true);
    }
    // The same instant in another spelling is the same read.
    const sameInstant = (first.body.updated_at as string).replace("Z", "+00:00");
    expect((await put({ public_url: null, allowed_origins: [], updated_at: sameInstant })).status).toBe(200);
  });

  it("moves the OAuth issuer, the resource, the challenge, CORS, the consent origin and attachment links to the saved URL, and back", async () => {
    const oldToken = (await authorize(c.server.url, `${c.server.url}/mcp`)).token;
    expect(oldToken).toMatch(/^oat_/);
    expect((await preflight(AGENTS)).status).toBe(403);
    expect(isForeignServerAction(serverAction(AGENTS))).toBe(true);

    const saved = await put({ public_url: `${renamed}/`, allowed_origins: [AGENTS] });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ public_url: renamed, allowed_origins: [AGENTS], effective_public_url: renamed });
    expect(saved.body.effective_allowed_origins).toEqual(expect.arrayContaining([c.server.url, AGENTS]));
    const entry = await c.entry("settings.remote_access");
    expect(entry?.subject).toBe("remote_access");

    // Discovery names the new address.
    const as = await json("/.well-known/oauth-authorization-server");
    expect(as.issuer).toBe(renamed);
    expect(as.token_endpoint).toBe(`${renamed}/oauth/token`);
    const prm = await json("/.well-known/oauth-protected-resource/mcp");
    expect(prm).toMatchObject({ resource: `${renamed}/mcp`, authorization_servers: [renamed] });
    const challenge = await rawMcp(c.server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${renamed}/.well-known/oauth-protected-resource/mcp"`);

    // Tokens are for the new /mcp only: one issued for the old resource stops, the old resource is refused.
    expect((await rawMcp(c.server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: `Bearer ${oldToken}` })).status).toBe(401);
    const client = (await register(c.server.url)).body;
    // A client the owner has let in once (a code exchanged): only its errors go back to its redirect URI.
    await (await getDb()).update(oauthClients).set({ lastUsedAt: new Date() }).where(eq(oauthClients.id, client.client_id));
    const oldResource = await startAuthorize(c.server.url, authorizeQuery(client.client_id, pkce().challenge, { resource: `${c.server.url}/mcp` }));
    expect(new URL(oldResource.location ?? "").searchParams.get("error")).toBe("invalid_target");
    expect(new URL(oldResource.location ?? "").searchParams.get("iss")).toBe(renamed);

    // The consent page may post from the new origin; a foreign one is still refused.
    const fresh = await authorize(renamed, `${renamed}/mcp`);
    expect(fresh.token).toMatch(/^oat_/);
    expect((await rawMcp(c.server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: `Bearer ${fresh.token}` })).status).toBe(200);
    const foreign = await authorize("https://evil.example", `${renamed}/mcp`);
    expect(foreign.status).toBe(403);
    expect(foreign.token).toBeUndefined();

    // The extra origin may call /mcp from a browser and post server actions; others still may not.
    const allowed = await preflight(AGENTS);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(AGENTS);
    expect((await preflight("https://evil.example")).status).toBe(403);
    expect(isForeignServerAction(serverAction(AGENTS))).toBe(false);
    expect(isForeignServerAction(serverAction("https://evil.example"))).toBe(true);

    // get_attachment's capability carries the new origin and is served only there.
    const link = attachmentUrl({ projectId: c.seeded.project.id, attachmentId: "att_none", keyId: null, sessionId: null });
    expect(link.url.startsWith(`${renamed}/mail-attachment/`)).toBe(true);
    const path = new URL(link.url).pathname;
    expect(readAttachmentToken(path.split("/").at(-1) ?? "")?.origin).toBe(renamed);
    expect(await getWithHost(path, new URL(c.server.url).host)).toBe(403);
    // Past the origin check: no such attachment, so gone.
    expect(await getWithHost(path, new URL(renamed).host)).toBe(410);

    // Every other link handed out starts at the new address too: an agent's whoami, a source's hook, a download.
    const whoami = await fetch(`${c.server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${c.seeded.secret}` } });
    expect((await whoami.json()).endpoints).toEqual({ mcp: `${renamed}/mcp`, api: `${renamed}/api/v1`, openapi: `${renamed}/api/v1/openapi.json` });
    expect(hookUrl("src_any").startsWith(`${renamed}/hooks/`)).toBe(true);
    expect(linkUrl("lnk_any").startsWith(`${renamed}/`)).toBe(true);

    // Back to PUBLIC_URL.
    const cleared = await put({ public_url: "", allowed_origins: [] });
    expect(cleared.body).toMatchObject({ public_url: null, effective_public_url: c.server.url, effective_allowed_origins: [] });
    expect((await json("/.well-known/oauth-authorization-server")).issuer).toBe(c.server.url);
    expect((await preflight(AGENTS)).status).toBe(403);
  });

  it("serves the saved public URL's host name, which the Host check refused before", async () => {
    expect(await getWithHost("/.well-known/oauth-authorization-server", "brynth.example.test")).toBe(421);
    expect((await put({ public_url: "https://brynth.example.test", allowed_origins: [] })).status).toBe(200);
    expect(await getWithHost("/.well-known/oauth-authorization-server", "brynth.example.test")).toBe(200);
    expect(await getWithHost("/.well-known/oauth-authorization-server", "other.example.test")).toBe(421);
    // PUBLIC_URL's own host stays served, so a wrong saved URL cannot lock out the address the owner uses.
    expect(await getWithHost("/.well-known/oauth-authorization-server", new URL(c.server.url).host)).toBe(200);
    await put({ public_url: null, allowed_origins: [] });
    expect(await getWithHost("/.well-known/oauth-authorization-server", "brynth.example.test")).toBe(421);
  });
});
