import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

const ALLOWED = "https://agents.example.com";
let server: Awaited<ReturnType<typeof startApiServer>>;
let secret: string;
beforeAll(async () => {
  process.env.ALLOWED_ORIGINS = `${ALLOWED},https://other.example.org`;
  resetEnvCache();
  server = await startApiServer();
  secret = (await seedProject({ scopes: ["ledger:read"] })).secret;
});
afterAll(async () => {
  delete process.env.ALLOWED_ORIGINS;
  resetEnvCache();
  await server.close();
});

const preflight = (path: string, origin: string, method = "POST") =>
  fetch(`${server.url}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type, mcp-session-id" },
  });

describe("CORS on /mcp and /api/v1", () => {
  it.each(["/mcp", "/api/v1/whoami"])("answers a preflight to %s from an allowed origin, naming it", async (path) => {
    const res = await preflight(path, ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const allowHeaders = res.headers.get("access-control-allow-headers")!.toLowerCase();
    for (const h of [
      "authorization",
      "content-type",
      "mcp-session-id",
      "mcp-protocol-version",
      "last-event-id",
      "x-brynth-agent",
      "x-brynth-platform",
      "x-brynth-project",
      "if-match",
    ]) {
      expect(allowHeaders).toContain(h);
    }
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("vary")).toContain("Origin");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it.each(["/mcp", "/api/v1/whoami"])("refuses a preflight to %s from any other origin, loopback included", async (path) => {
    for (const origin of ["https://evil.example", "http://127.0.0.1:9", "null"]) {
      const res = await preflight(path, origin);
      expect(res.status).toBe(403);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("grants the public URL's own origin", async () => {
    const res = await preflight("/mcp", server.url);
    expect(res.headers.get("access-control-allow-origin")).toBe(server.url);
  });

  it("marks actual responses for allowed origins only, exposing Mcp-Session-Id", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "cors", version: "1" } },
    };
    const post = (origin: string) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { origin, authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(init),
      });
    const ok = await post(ALLOWED);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(ok.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");
    expect(ok.headers.get("vary")).toContain("Origin");
    // Loopback passes the DNS-rebinding check but is not granted CORS; a foreign origin is refused outright.
    const loopback = await post("http://localhost:9");
    expect(loopback.headers.get("access-control-allow-origin")).toBeNull();
    expect((await post("https://evil.example")).status).toBe(403);

    const rest = await fetch(`${server.url}/api/v1/whoami`, { headers: { origin: ALLOWED, authorization: `Bearer ${secret}` } });
    expect(rest.status).toBe(200);
    expect(rest.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const refused = await fetch(`${server.url}/api/v1/whoami`, { headers: { origin: "https://evil.example", authorization: `Bearer ${secret}` } });
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    // Errors carry the grant too, so a browser script can read why it failed.
    const unauthorized = await fetch(`${server.url}/api/v1/whoami`, { headers: { origin: ALLOWED } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });
});
