import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { toWebRequest } from "@/lib/http/node-adapter";
import { bufferedBody } from "@/lib/http/light-request";

// The fast path's Request (light-request.ts): the members handlers use, and the real Request behind the rest.
describe("light request", () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  /** Serves one handler; each request's web Request goes to `handle`, whose JSON result is the response. */
  async function serve(handle: (req: Request) => Promise<unknown>) {
    server = createServer(async (req, res) => {
      const web = await toWebRequest(req, res, "http://brynth.test");
      const out = await handle(web).catch((err: Error) => ({ error: err.message }));
      if (!res.destroyed) res.end(JSON.stringify(out));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it("reads method, url, headers and a small body without building a Request", async () => {
    const RealRequest = globalThis.Request;
    let built = 0;
    globalThis.Request = new Proxy(RealRequest, { construct: (target, args) => (built++, Reflect.construct(target, args)) });
    onTestFinished(() => void (globalThis.Request = RealRequest));
    const base = await serve(async (req) => ({
      method: req.method,
      url: req.url,
      type: req.headers.get("Content-Type"),
      missing: req.headers.get("x-none"),
      has: req.headers.has("x-multi"),
      buffered: bufferedBody(req)?.toString(),
      json: await req.json(),
      names: [...req.headers.keys()].filter((k) => k.startsWith("x-")),
    }));
    const res = await fetch(`${base}/api/v1/kv/a?x=1`, { method: "PUT", headers: { "content-type": "application/json", "x-multi": "1" }, body: '{"v":1}' });
    expect(await res.json()).toEqual({
      method: "PUT",
      url: "http://brynth.test/api/v1/kv/a?x=1",
      type: "application/json",
      missing: null,
      has: true,
      buffered: '{"v":1}',
      json: { v: 1 },
      names: ["x-multi"],
    });
    expect(built).toBe(0);
  });

  it("answers everything else from a real Request built on first use", async () => {
    const base = await serve(async (req) => {
      const copy = req.clone();
      const form = await req.formData();
      return { decision: form.get("decision"), mode: req.mode, copy: await copy.text(), used: req.bodyUsed };
    });
    const res = await fetch(`${base}/decide`, { method: "POST", body: new URLSearchParams({ decision: "approve" }) });
    expect(await res.json()).toEqual({ decision: "approve", mode: "cors", copy: "decision=approve", used: true });
  });

  it("streams a body over the buffering limit instead of reading it first", async () => {
    const big = "x".repeat(200 * 1024);
    const base = await serve(async (req) => ({ buffered: bufferedBody(req) !== undefined, size: (await req.text()).length }));
    const res = await fetch(`${base}/up`, { method: "PUT", body: big });
    expect(await res.json()).toEqual({ buffered: false, size: big.length });
  });

  it("aborts its signal when the client goes away, even if the signal is read afterwards", async () => {
    let aborted: Promise<boolean> | undefined;
    const base = await serve(async (req) => {
      await new Promise((r) => setTimeout(r, 150));
      aborted = Promise.resolve(req.signal.aborted);
      return {};
    });
    const client = httpRequest(`${base}/wait`);
    client.on("error", () => {});
    client.end();
    setTimeout(() => client.destroy(), 30);
    await new Promise((r) => setTimeout(r, 300));
    expect(await aborted).toBe(true);
  });
});
