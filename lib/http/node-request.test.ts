import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import type { ApiRequest } from "@/lib/http/api-request";
import { nodeRequest } from "@/lib/http/node-request";
import { readBody, readForm, readJson } from "@/lib/http/read-body";

// The fast path's request (node-request.ts) and a fetch Request are the same ApiRequest to a handler.
describe("node request", () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  /** Serves one handler; each request's ApiRequest goes to `handle`, whose JSON result is the response. */
  async function serve(handle: (req: ApiRequest) => Promise<unknown>) {
    server = createServer(async (req, res) => {
      const api = await nodeRequest(req, res, "http://brynth.test");
      const out = await handle(api).catch((err: Error) => ({ error: err.message }));
      if (!res.destroyed) res.end(JSON.stringify(out));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it("reads method, url, headers and a small body without building a Request", async () => {
    const RealRequest = globalThis.Request;
    let built = 0;
    globalThis.Request = new Proxy(RealRequest, {
      construct: (target, args) => {
        built++;
        return Reflect.construct(target, args);
      },
    });
    onTestFinished(() => void (globalThis.Request = RealRequest));
    const base = await serve(async (req) => ({
      method: req.method,
      url: req.url,
      type: req.headers.get("Content-Type"),
      missing: req.headers.get("x-none"),
      multi: req.headers.get("x-multi"),
      buffered: Buffer.from(req.bufferedBody!).toString(),
      json: await readJson(req, 1024),
    }));
    const res = await fetch(`${base}/api/v1/kv/a?x=1`, { method: "PUT", headers: { "content-type": "application/json", "x-multi": "1" }, body: '{"v":1}' });
    expect(await res.json()).toEqual({
      method: "PUT",
      url: "http://brynth.test/api/v1/kv/a?x=1",
      type: "application/json",
      missing: null,
      multi: "1",
      buffered: '{"v":1}',
      json: { v: 1 },
    });
    expect(built).toBe(0);
  });

  it("gives a form's fields to a handler on both ways in", async () => {
    const base = await serve(async (req) => Object.fromEntries(await readForm(req, 1024)));
    const sent = new URLSearchParams({ choice: "approve", comment: "é ok" });
    const res = await fetch(`${base}/decide`, { method: "POST", body: sent });
    expect(await res.json()).toEqual({ choice: "approve", comment: "é ok" });
    const fetched: ApiRequest = new Request("http://brynth.test/decide", { method: "POST", body: sent });
    expect(Object.fromEntries(await readForm(fetched, 1024))).toEqual({ choice: "approve", comment: "é ok" });
  });

  it("streams a body over the buffering limit instead of reading it first, and enforces the limit on both ways in", async () => {
    const big = "x".repeat(200 * 1024);
    const base = await serve(async (req) => ({ buffered: req.bufferedBody !== undefined, size: (await readBody(req, 300 * 1024)).byteLength }));
    const res = await fetch(`${base}/up`, { method: "PUT", body: big });
    expect(await res.json()).toEqual({ buffered: false, size: big.length });
    const fetched: ApiRequest = new Request("http://brynth.test/up", { method: "PUT", body: new Blob([big]).stream(), duplex: "half" } as RequestInit);
    await expect(readBody(fetched, 100 * 1024)).rejects.toMatchObject({ code: "payload_too_large" });
  });

  it("aborts its signal when the client goes away, even if the signal is read afterwards", async () => {
    // Driven by events, not fixed delays: on a loaded machine the request can reach the handler after any delay.
    let arrived = () => {};
    const inHandler = new Promise<void>((r) => (arrived = r));
    let read = (_: boolean) => {};
    const aborted = new Promise<boolean>((r) => (read = r));
    const base = await serve(async (req) => {
      arrived();
      await new Promise((r) => setTimeout(r, 150));
      read(req.signal.aborted);
      return {};
    });
    const client = httpRequest(`${base}/wait`);
    client.on("error", () => {});
    client.end();
    await inHandler;
    client.destroy();
    expect(await aborted).toBe(true);
  });
});
