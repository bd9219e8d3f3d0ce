import { request } from "node:http";
import { getScriptNonceFromHeader } from "next/dist/server/app-render/get-script-nonce-from-header";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { baseSecurityHeaders, pageCsp } from "@/lib/http/security-headers";
import { startApiServer } from "@/lib/testing/api-server";

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

/** A request with exactly these headers (fetch would set Host and drop some). */
function send(path: string, opts: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const url = new URL(server.url);
    const req = request({ host: url.hostname, port: url.port, path, method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)] as const));

describe("page CSP", () => {
  it("runs scripts by nonce and what they load, and nothing else, with Next reading the nonce", () => {
    const csp = pageCsp("abc123+/=", { dev: false, publicUrl: "https://brynth.example.com" });
    expect(getScriptNonceFromHeader(csp)).toBe("abc123+/=");
    const d = directives(csp);
    expect(d.get("script-src")).toEqual(["'self'", "'nonce-abc123+/='", "'strict-dynamic'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(d.get("connect-src")).toEqual(["'self'", "wss://brynth.example.com"]);
    expect(csp).not.toContain("unsafe-eval");
  });

  it("allows eval (React refresh) and any WebSocket (HMR) in development only", () => {
    const d = directives(pageCsp("n", { dev: true, publicUrl: "http://localhost:3000" }));
    expect(d.get("script-src")).toContain("'unsafe-eval'");
    expect(d.get("connect-src")).toEqual(["'self'", "ws://localhost:3000", "ws:", "wss:"]);
  });
});

describe("base headers", () => {
  it("send HSTS only for an https PUBLIC_URL, and no Referer to other sites from capability pages", () => {
    const plain = new Map(baseSecurityHeaders({ https: false, capability: false }));
    expect(plain.get("X-Content-Type-Options")).toBe("nosniff");
    expect(plain.get("X-Frame-Options")).toBe("DENY");
    expect(plain.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(plain.get("Permissions-Policy")).toContain("camera=()");
    expect(plain.has("Strict-Transport-Security")).toBe(false);
    const https = new Map(baseSecurityHeaders({ https: true, capability: true }));
    expect(https.get("Strict-Transport-Security")).toBe("max-age=31536000");
    expect(https.get("Referrer-Policy")).toBe("same-origin");
  });
});

describe("on the wire (fast path, as server.ts runs it first)", () => {
  it("puts nosniff and the frame refusal on JSON answers and early refusals, without a page CSP", async () => {
    for (const res of [await send("/api/v1/whoami"), await send("/decide/%zz"), await send("/mcp", { headers: { host: "evil.example.com" } })]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["content-security-policy"]).toBeUndefined();
    }
    expect((await send("/decide/%zz")).headers["referrer-policy"]).toBe("same-origin");
  });

  it("sends HSTS once PUBLIC_URL is https, on pages and API answers alike", async () => {
    expect((await send("/login")).headers["strict-transport-security"]).toBeUndefined();
    process.env.PUBLIC_URL = "https://brynth.example.com";
    resetEnvCache();
    try {
      for (const path of ["/login", "/api/v1/whoami"]) expect((await send(path)).headers["strict-transport-security"]).toBe("max-age=31536000");
      expect((await send("/login")).headers["content-security-policy"]).toContain("connect-src 'self' wss://brynth.example.com");
    } finally {
      process.env.PUBLIC_URL = server.url;
      resetEnvCache();
    }
  });

  it("gives each page request (Next's paths) its own nonce, never the client's", async () => {
    const forged = "script-src 'nonce-chosenbyattacker'";
    const a = await send("/login", { headers: { "content-security-policy": forged } });
    const b = await send("/login");
    const nonce = (r: typeof a) => getScriptNonceFromHeader(String(r.headers["content-security-policy"]));
    expect(nonce(a)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonce(b)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonce(a)).not.toBe(nonce(b));
    expect(a.headers["x-frame-options"]).toBe("DENY");
    expect((await send("/setup?token=x")).headers["referrer-policy"]).toBe("same-origin");
  });

  it("refuses a server action from another origin with 403 before Next, and lets same-origin ones through", async () => {
    const action = (headers: Record<string, string>) => send("/", { method: "POST", headers: { "next-action": "abc", ...headers } });
    for (const origin of ["http://evil.example", "null", new URL(server.url).origin.replace("127.0.0.1", "localhost")]) {
      const res = await action({ origin });
      expect(res.status, origin).toBe(403);
      expect(res.headers["content-type"]).toContain("text/plain");
      expect(res.body).toContain("another origin");
    }
    // Through to Next (here the test server's 404): the public URL's origin, the Host's own, no Origin at all.
    const port = new URL(server.url).port;
    expect((await action({ origin: server.url })).status).toBe(404);
    expect((await action({ origin: `http://localhost:${port}`, host: `localhost:${port}` })).status).toBe(404);
    expect((await action({})).status).toBe(404);
    // Not an action: a form POST is Next's (or the route's) to judge.
    expect((await send("/", { method: "POST", headers: { origin: "http://evil.example" } })).status).toBe(404);
  });
});
