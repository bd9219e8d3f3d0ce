import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { MemoryOAuthProvider } from "@/lib/testing/oauth-test-provider";
import { seedProject } from "@/lib/testing/seed";
import { rawMcp } from "@/lib/testing/mcp-client";
import { decide, REDIRECT, token } from "./oauth-steps";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "SDK OAuth" });
});
afterAll(() => server.close());

const connect = async (provider: MemoryOAuthProvider) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
  const client = new Client({ name: "sdk-oauth", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
};

describe("the MCP SDK client's own OAuth flow", () => {
  it("discovers, registers, gets the owner's approval, exchanges the code and refreshes, all by itself", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "sdk-oauth", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    // The SDK registered itself and sent the browser to our authorization endpoint with PKCE S256 and the resource.
    const url = provider.authorizationUrl as URL;
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/oauth/authorize`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(`${server.url}/mcp`);
    const consent = await fetch(url, { redirect: "manual" });
    const query = new URL(consent.headers.get("location") ?? "", server.url).searchParams;
    const approved = await decide(server.url, query, { decision: "approve", project_id: seeded.project.id, scope: ["ledger:read", "disk"] });
    expect(approved.target?.searchParams.get("state")).toBe(url.searchParams.get("state"));
    await transport.finishAuth(approved.target?.searchParams.get("code") ?? "");
    expect(provider.saved?.access_token).toMatch(/^oat_/);

    const { client } = await connect(provider);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(expect.arrayContaining(["kv_get", "kv_set", "ledger_query", "whoami"]));
    expect(names.some((n) => n.startsWith("inbox_") || n === "send_message")).toBe(false);
    const who = await client.callTool({ name: "whoami", arguments: {} });
    expect(who.isError).toBeFalsy();
    await client.close();

    // An access token that stops working sends the SDK to the refresh token, which rotates.
    const first = provider.saved;
    provider.saved = { ...first!, access_token: `oat_${"x".repeat(40)}` };
    const again = await connect(provider);
    expect((await again.client.callTool({ name: "whoami", arguments: {} })).isError).toBeFalsy();
    expect(provider.saved?.refresh_token).not.toBe(first?.refresh_token);
    await again.client.close();
    // The old refresh token, replayed, takes the grant down.
    const reuse = await token(server.url, { grant_type: "refresh_token", refresh_token: first!.refresh_token!, client_id: provider.client!.client_id });
    expect(reuse.body.error).toBe("invalid_grant");
    const revoked = await rawMcp(server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: `Bearer ${provider.saved?.access_token}` });
    expect(revoked.status).toBe(401);
  });
});
