import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { resetEnvCache } from "@/lib/env";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "host-test", version: "1" } },
});

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ scopes: ["ledger:read", "inbox:read"] });
});
afterAll(() => server.close());
afterEach(() => {
  delete process.env.ALLOWED_HOSTS;
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});

/** A request with exactly these headers (fetch would set Host itself). */
function send(path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const url = new URL(server.url);
    const req = request({ host: url.hostname, port: url.port, path, method: body ? "POST" : "GET", setHost: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
    req.on("error", reject);
    req.end(body);
  });
}

const mcp = (host: string, extra: Record<string, string> = {}) =>
  send(
    "/mcp",
    {
      host,
      authorization: `Bearer ${seeded.secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...extra,
    },
    initialize,
  );

describe("Host check", () => {
  it("answers a foreign Host with 421 and a JSON error naming it, on /mcp, REST and a page path alike", async () => {
    const res = await mcp("evil.example.com");
    expect(res.status).toBe(421);
    const { error } = JSON.parse(res.body);
    expect(error.code).toBe("misdirected_request");
    expect(error.message).toContain("evil.example.com");
    expect(error.fix).toContain("ALLOWED_HOSTS");
    expect((await send("/api/v1/whoami", { host: "evil.example.com:8080", authorization: `Bearer ${seeded.secret}` })).status).toBe(421);
    expect((await send("/login", { host: "evil.example.com" })).status).toBe(421);
    // A name that merely ends like a loopback one is not one.
    expect((await mcp("localhost.evil.example.com")).status).toBe(421);
    expect((await mcp("evil-localhost")).status).toBe(421);
  });

  it("serves the public URL's host and the loopback names, on any port", async () => {
    for (const host of [new URL(server.url).host, "127.0.0.1", "localhost:9999", "LOCALHOST", "[::1]:1234", "app.localhost", "a.b.localhost:80"]) {
      const res = await mcp(host);
      expect(res.status, host).toBe(200);
    }
  });

  it("serves ALLOWED_HOSTS: a bare name on any port, host:port on that port only", async () => {
    process.env.ALLOWED_HOSTS = "brynth.example.com, api.example.com:8443";
    resetEnvCache();
    expect((await mcp("brynth.example.com")).status).toBe(200);
    expect((await mcp("Brynth.Example.com:443")).status).toBe(200);
    expect((await mcp("api.example.com:8443")).status).toBe(200);
    expect((await mcp("api.example.com")).status).toBe(421);
    expect((await mcp("api.example.com:8080")).status).toBe(421);
  });

  it("judges X-Forwarded-Host instead of Host only behind a trusted proxy", async () => {
    const forwarded = { "x-forwarded-host": "evil.example.com" };
    expect((await mcp("127.0.0.1", forwarded)).status).toBe(200);
    process.env.TRUST_PROXY = "1";
    process.env.ALLOWED_HOSTS = "brynth.example.com";
    resetEnvCache();
    expect((await mcp("127.0.0.1", forwarded)).status).toBe(421);
    expect((await mcp("internal-name:3000", { "x-forwarded-host": "brynth.example.com" })).status).toBe(200);
    expect((await mcp("127.0.0.1")).status).toBe(200);
  });

  it("behind a trusted proxy judges the last X-Forwarded-Host entry: a proxy that appends writes it after the client's", async () => {
    process.env.TRUST_PROXY = "1";
    process.env.ALLOWED_HOSTS = "brynth.example.com";
    resetEnvCache();
    // The client wrote the first entry; the proxy appended the name it was reached at.
    expect((await mcp("internal-name:3000", { "x-forwarded-host": "brynth.example.com, evil.example.com" })).status).toBe(421);
    expect((await mcp("internal-name:3000", { "x-forwarded-host": "evil.example.com, brynth.example.com" })).status).toBe(200);
    expect((await mcp("internal-name:3000", { "x-forwarded-host": "evil.example.com,brynth.example.com" })).status).toBe(200);
  });

  it("serves an HTTP/1.0 request without Host: browsers always send one, so no rebinding can hide there", async () => {
    const auth = `authorization: Bearer ${seeded.secret}\r\n`;
    const head = `POST /mcp HTTP/1.0\r\n${auth}content-type: application/json\r\naccept: application/json, text/event-stream\r\n`;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), "127.0.0.1", () => {
        // write, not end: a half-closed socket may be dropped before the answer; HTTP/1.0 closes it after.
        socket.write(`${head}content-length: ${Buffer.byteLength(initialize)}\r\n\r\n${initialize}`);
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (c) => (text += c));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.[01] 200 /);
  });

  it("refuses a WebSocket upgrade of the live stream with a foreign Host", async () => {
    const statusOf = (host: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${server.url.replace("http", "ws")}/api/v1/stream`, { headers: { authorization: `Bearer ${seeded.secret}`, host } });
        ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.on("open", () => {
          ws.close();
          resolve(101);
        });
        ws.on("error", () => {});
      });
    expect(await statusOf("evil.example.com")).toBe(421);
    expect(await statusOf(new URL(server.url).host)).toBe(101);
  });
});
