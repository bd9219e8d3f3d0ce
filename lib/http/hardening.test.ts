import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJson } from "@/lib/http/read-body";
import { JSON_MAX_DEPTH } from "@/lib/json/json-depth";
import { requestPathProblem } from "@/lib/http/path-guard";
import { digest } from "@/lib/ledger/canonical";
import { rawMcp } from "@/lib/testing/mcp-client";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
const auth = () => ({ authorization: `Bearer ${seeded.secret}` });

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject();
});
afterAll(() => server.close());

/** `[[[…1…]]]` nested `depth` arrays deep. */
const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

/** A request with the path exactly as written: fetch would resolve `..` and `%2e` before sending. */
function raw(path: string, opts: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(server.url);
    const req = request({ host: url.hostname, port: url.port, path, method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

describe("JSON nesting depth", () => {
  const read = (body: string) => readJson(new Request("http://x/", { method: "POST", body }), 1 << 20);

  it("reads JSON as deep as the limit, strings full of brackets included, and refuses one level more", async () => {
    expect(await read(deep(JSON_MAX_DEPTH))).toBeDefined();
    expect(await read(JSON.stringify({ a: "[".repeat(5000), b: ['{\\"['] }))).toEqual({ a: "[".repeat(5000), b: ['{\\"['] });
    await expect(read(deep(JSON_MAX_DEPTH + 1))).rejects.toMatchObject({
      code: "validation_error",
      message: expect.stringContaining(`${JSON_MAX_DEPTH} levels`),
    });
    await expect(read(`{"a":${'{"b":'.repeat(5000)}1${"}".repeat(5001)}`)).rejects.toMatchObject({ code: "validation_error" });
  });

  it("refuses to digest a value deeper than the stack by name, not with a RangeError", () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(() => digest(v)).toThrow(expect.objectContaining({ code: "validation_error", message: expect.stringContaining("levels deep") }));
    expect(digest(JSON.parse(deep(500)))).toMatch(/^sha256:/);
  });

  it.each([
    ["kv_set", "PUT", "/api/v1/kv/deep", (d: string) => `{"value":${d}}`],
    ["state_save", "PUT", "/api/v1/state/deep-task", (d: string) => `{"state":${d}}`],
    ["inbox_ack", "POST", "/api/v1/events/evt_0000000000000000000000/ack", (d: string) => `{"result":${d}}`],
  ])("answers %s over REST with a JSON body nested 5,000 deep with 400 validation_error", async (_tool, method, path, body) => {
    const res = await fetch(`${server.url}${path}`, { method, body: body(deep(5000)), headers: { ...auth(), "content-type": "application/json" } });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.error.code).toBe("validation_error");
    expect(json.error.message).toContain(`${JSON_MAX_DEPTH} levels`);
  });

  it("answers MCP with a JSON-RPC error, not a 500", async () => {
    const msg = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"kv_set","arguments":{"key":"k","value":${deep(5000)}}}}`;
    const res = await rawMcp(server.url, msg, auth());
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.jsonrpc).toBe("2.0");
    expect(json.error.data.code).toBe("validation_error");
    expect(json.error.message).toContain(`${JSON_MAX_DEPTH} levels`);
  });
});

describe("the emailed-decision endpoint", () => {
  it.each([
    ["a JSON body", "application/json", '{"choice":"approve"}'],
    ["a form type with a body that is not a form", "application/x-www-form-urlencoded", "%E0%A4%A\u0000\uFFFF=%zz&&="],
    ["no content type", "", "choice=approve"],
  ])("answers %s with 4xx naming the problem", async (_name, type, body) => {
    const token = "A".repeat(32);
    const headers: Record<string, string> = { origin: server.url };
    if (type) headers["content-type"] = type;
    const res = await fetch(`${server.url}/decide/${token}/submit`, { method: "POST", body, headers, redirect: "manual" });
    expect(res.status, await res.clone().text()).toBeLessThan(500);
  });
});

describe("malformed % escapes and dot segments in the path", () => {
  it.each([
    "/decide/%E0%A4%A",
    "/decide/%E0%A4%A/submit",
    "/verify/%zz",
    "/verify/%/confirm",
    "/mail-html/%",
    "/events/%zz",
    "/ledger/%",
    "/api/auth/%",
    "/mcp/%",
  ])("answers %s with 400 bad_request", async (path) => {
    const res = await raw(path, { headers: auth() });
    expect(res.status, res.body).toBe(400);
    const json = JSON.parse(res.body);
    expect(json.error.code).toBe("bad_request");
    expect(json.error.message).toMatch(/malformed % escape/);
  });

  it.each([
    ["/api/v1/kv/%zz", "key"],
    ["/api/v1/files/a%/b", "path"],
  ])("answers %s with 400 validation_error naming the REST parameter", async (path, field) => {
    const res = await raw(path, { headers: auth() });
    expect(res.status, res.body).toBe(400);
    const json = JSON.parse(res.body);
    expect(json.error.code).toBe("validation_error");
    expect(json.error.message).toMatch(new RegExp(`^${field}: `));
  });

  it.each(["/api/v1/files/a/../../kv/x", "/api/v1/files/%2e%2e/x", "/api/v1/kv/%2E./x", "/api/v1/./kv/x", "/events/.%2e/x", "/api/v1/files/a/.."])(
    "refuses the dot segments of %s before routing",
    async (path) => {
      const res = await raw(path, { headers: auth() });
      expect(res.status, res.body).toBe(400);
      const json = JSON.parse(res.body);
      expect(json.error.code).toBe("bad_request");
      expect(json.error.message).toMatch(/\. or \.\. segment/);
    },
  );

  it("still serves well-formed paths, escapes and dots inside names included", async () => {
    const put = await raw("/api/v1/files/..hidden/a%20b..txt", {
      method: "PUT",
      body: JSON.stringify({ content_base64: "aGk=" }),
      headers: { ...auth(), "content-type": "application/json" },
    });
    expect(put.status, put.body).toBe(200);
    expect(JSON.parse(put.body).path).toBe("..hidden/a b..txt");
  });

  it("refuses file_put of the literal path %2e%2e/x with validation_error", async () => {
    const res = await raw("/api/v1/files/%252e%252e/x", {
      method: "PUT",
      body: JSON.stringify({ content_base64: "aGk=" }),
      headers: { ...auth(), "content-type": "application/json" },
    });
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe("validation_error");
  });

  it("is one pure check of the raw path", () => {
    expect(requestPathProblem("/api/v1/kv/a%20b")).toBeNull();
    expect(requestPathProblem("/_next/static/chunks/x.js")).toBeNull();
    expect(requestPathProblem("/a/%E0%A4%A")?.code).toBe("bad_request");
    expect(requestPathProblem("/a/%2e%2E/b")?.message).toMatch(/\. or \.\. segment/);
    expect(requestPathProblem("/api/v1/kv/%zz")).toBeNull(); // REST names the parameter itself
    expect(requestPathProblem("/api/v1/kv/%2e%2e")?.code).toBe("bad_request");
    expect(requestPathProblem("/a/..%2fb")).toBeNull(); // one segment named `../b`: the route's own rules judge it
  });
});
