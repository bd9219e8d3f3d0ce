import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { runtimeEnv } from "../scripts/runtime-env.mjs";

/**
 * A browser page on an origin listed in ALLOWED_ORIGINS calls /mcp and /api/v1 with a key; the same page served
 * from another origin (loopback, which the DNS-rebinding check accepts) is refused by CORS. Its own instance, since
 * ALLOWED_ORIGINS must name the page's origin before the server starts.
 */
const root = resolve(__dirname, "..");
const OWNER = { email: "cors@example.com", password: "cors-owner-password" };
let pages: Server;
let api: ChildProcess;
let apiUrl: string;
let allowedOrigin: string;
let otherOrigin: string;
let secret: string;
let dataDir: string;

test.beforeAll(async () => {
  pages = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>agent page</title>"));
  await new Promise<void>((r) => pages.listen(0, "127.0.0.1", r));
  const pagePort = (pages.address() as AddressInfo).port;
  allowedOrigin = `http://127.0.0.1:${pagePort}`;
  otherOrigin = `http://localhost:${pagePort}`;

  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), "brynth-e2e-cors-"));
  const env: NodeJS.ProcessEnv = { ...runtimeEnv(), NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port) };
  Object.assign(env, {
    PUBLIC_URL: apiUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ALLOWED_ORIGINS: allowedOrigin,
    OWNER_EMAIL: OWNER.email,
    OWNER_PASSWORD: OWNER.password,
  });
  Object.assign(env, { SMTP_PORT: String(await freePort()), SMTP_HOST: "127.0.0.1" });
  delete env.DATABASE_URL;
  api = spawn(process.execPath, ["dist/server.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((ready, fail) => {
    let out = "";
    api.stdout!.on("data", (d) => /ready on/.test((out += d)) && ready());
    api.once("exit", (code) => fail(new Error(`server exited with ${code}: ${out}`)));
  });
  const res = await fetch(`${apiUrl}/api/v1/keys`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${OWNER.email}:${OWNER.password}`).toString("base64")}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "browser page", scopes: ["ledger:read"] }),
  });
  expect(res.status).toBeLessThan(300);
  secret = (await res.json()).secret;
});

test.afterAll(async () => {
  if (api && api.exitCode === null) {
    await new Promise<void>((done) => {
      api.once("exit", () => done());
      api.kill("SIGTERM");
    });
  }
  await new Promise<void>((r) => (pages ? pages.close(() => r()) : r()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the page's own script gets from an MCP initialize, a tools/call in that session, and a REST read. */
function callFromPage(page: import("@playwright/test").Page) {
  return page.evaluate(
    async ({ apiUrl, secret }) => {
      const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
      try {
        const init = await fetch(`${apiUrl}/mcp`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } },
          }),
        });
        const session = init.headers.get("mcp-session-id");
        const call = await fetch(`${apiUrl}/mcp`, {
          method: "POST",
          headers: { ...headers, "mcp-session-id": session ?? "", "mcp-protocol-version": "2025-06-18" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } }),
        });
        const rest = await fetch(`${apiUrl}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } });
        return { ok: true as const, session, sessionSeen: (await call.json()).result.structuredContent.session_id, rest: rest.status };
      } catch (err) {
        return { ok: false as const, error: String(err) };
      }
    },
    { apiUrl, secret },
  );
}

test("a page on an allowed origin calls /mcp and /api/v1 with a key", async ({ page }) => {
  await page.goto(`${allowedOrigin}/`);
  const got = await callFromPage(page);
  expect(got).toMatchObject({ ok: true, rest: 200 });
  if (got.ok) expect(got.sessionSeen).toBe(got.session);
});

test("the same page on another origin is refused, while the allowed origin works", async ({ page }) => {
  await page.goto(`${allowedOrigin}/`);
  expect(await callFromPage(page)).toMatchObject({ ok: true });
  await page.goto(`${otherOrigin}/`);
  const refused = await callFromPage(page);
  expect(refused).toMatchObject({ ok: false, error: expect.stringContaining("Failed to fetch") });
});

function freePort(): Promise<number> {
  return new Promise((r) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => r(p));
    });
  });
}
