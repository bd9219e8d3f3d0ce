import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MemoryOAuthProvider } from "../lib/testing/oauth-test-provider";
import { OWNER, expect, server, test } from "./fixtures";
import { ConsentPage } from "./pages/consent-page";
import { OwnerSession } from "./pages/owner-session";
import { shot } from "./screenshots";

const ownerAuth = `Basic ${Buffer.from(`${OWNER.email}:${OWNER.password}`).toString("base64")}`;

/**
 * A native client's loopback redirect listener: resolves with the code (or error) the browser brings back. Only
 * `/callback` counts: Chromium asks the page's origin for `/favicon.ico` right after, and that empty query, taken
 * for the next redirect, was the second authorization's missing code.
 */
async function callbackListener() {
  let resolve: (params: URLSearchParams) => void = () => {};
  const next = () => new Promise<URLSearchParams>((r) => (resolve = r));
  let pending = next();
  const srv = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.");
    resolve(url.searchParams);
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/callback`,
    /** The next redirect's query. */
    async received() {
      const got = await pending;
      pending = next();
      return got;
    },
    close: () => srv.close(),
  };
}

async function connect(headers: Record<string, string> | undefined, authProvider?: MemoryOAuthProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider, requestInit: headers ? { headers } : undefined });
  const client = new Client({ name: "brynth-e2e-oauth", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
const mcpStatus = async (token: string) =>
  (
    await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    })
  ).status;

test("an MCP client connects with only the URL: the SDK's OAuth flow, the owner's consent for one mailbox in Chromium, revocation in Settings, and refresh-token reuse", async ({
  page,
}) => {
  // Two authorizations, a consent page each, on a machine other builds may be loading.
  test.setTimeout(240_000);
  const id = randomUUID().slice(0, 8);
  const clientName = `e2e-oauth-${id}`;
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  // The API keys screen says how: only the URL.
  await page.goto("/api-keys");
  await expect(page.getByText(`claude mcp add --transport http brynth ${server.url}/mcp`, { exact: true })).toBeVisible();
  const callback = await callbackListener();
  try {
    // The owner's own credentials work on /mcp too: two mailboxes to restrict to.
    const owner = await connect({ Authorization: ownerAuth });
    const made = async (username: string) => {
      const res = await owner.client.callTool({ name: "create_inbox", arguments: { username } });
      expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
      // Results are snake_case on both transports (mailboxes spec).
      const made = res.structuredContent as { inbox_id: string; email: string };
      return { inboxId: made.inbox_id, email: made.email };
    };
    const a = await made(`oauth-a-${id}`);
    const b = await made(`oauth-b-${id}`);
    await owner.client.close();

    // 401 → protected-resource metadata → authorization-server metadata → registration → authorization URL.
    const provider = new MemoryOAuthProvider(callback.url, clientName);
    const first = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "brynth-e2e-oauth", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^oac_/);
    const authUrl = provider.authorizationUrl as URL;

    const consent = new ConsentPage(page);
    await consent.open(authUrl, clientName);
    // The scopes the client asked for come ticked; the owner grants two and one mailbox.
    await expect(consent.scope("message_read")).toBeChecked();
    await consent.grantOnly(["inbox_read", "message_read"]);
    await consent.restrictTo(b.email);
    await shot(page, "oauth-consent");
    await consent.approve();
    const back = await callback.received();
    expect(back.get("state")).toBe(authUrl.searchParams.get("state"));
    expect(back.get("iss")).toBe(server.url);
    await first.finishAuth(back.get("code") ?? "");

    // The grant's tools are exactly those of a key with the same scopes.
    const agent = await connect(undefined, provider);
    const keyRes = await fetch(`${server.url}/api/v1/keys`, {
      method: "POST",
      headers: { authorization: ownerAuth, "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ name: `same-scopes-${id}`, scopes: ["inbox_read", "message_read"] }),
    });
    const sameScopes = await connect({ Authorization: `Bearer ${(await keyRes.json()).secret}` });
    expect(await toolNames(agent.client)).toEqual(await toolNames(sameScopes.client));
    await sameScopes.client.close();
    const own = await agent.client.callTool({ name: "get_inbox", arguments: { inboxId: b.inboxId } });
    expect(own.isError).toBeFalsy();
    const other = await agent.client.callTool({ name: "get_inbox", arguments: { inboxId: a.inboxId } });
    expect(other.isError).toBe(true);
    expect(JSON.parse((other.content as { text: string }[])[0].text).code).toBe("NOT_FOUND");
    await agent.client.close();

    // Settings lists the app; revoking it there stops its token on the next request.
    await page.goto("/settings#connected-apps");
    await expect(consent.connectedApp(clientName)).toContainText(b.email);
    await expect(consent.connectedApp(clientName)).toContainText("message_read");
    await shot(page, "oauth-connected-apps");
    const token = provider.saved?.access_token ?? "";
    expect(await mcpStatus(token)).toBe(200);
    await consent.revokeInSettings(clientName);
    await expect.poll(() => mcpStatus(token), { timeout: 15_000 }).toBe(401);

    // Authorized again; a refresh rotates, and replaying the old refresh token revokes the new grant.
    provider.saved = undefined;
    const second = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "brynth-e2e-oauth", version: "1.0.0" }).connect(second)).rejects.toBeInstanceOf(UnauthorizedError);
    await consent.open(provider.authorizationUrl as URL, clientName);
    await consent.grantOnly(["inbox_read"]);
    await consent.approve();
    await second.finishAuth((await callback.received()).get("code") ?? "");
    const old = provider.tokens();
    const refresh = (refreshToken: string) =>
      fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: provider.client?.client_id ?? "" }),
      });
    const rotated = await (await refresh(old?.refresh_token ?? "")).json();
    expect(await mcpStatus(rotated.access_token)).toBe(200);
    const reuse = await refresh(old?.refresh_token ?? "");
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe("invalid_grant");
    expect(await mcpStatus(rotated.access_token)).toBe(401);
    await page.goto("/settings#connected-apps");
    await expect(page.getByRole("heading", { name: "Connected apps" }).or(page.getByText("Connected apps").first())).toBeVisible();
    await expect(consent.connectedApp(clientName)).toHaveCount(0);
  } finally {
    callback.close();
  }
});
