import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { isBlockedAddress, outboundUrlProblem } from "@/lib/http/outbound-address";
import { guardedLookup, safeFetch, setResolverForTests } from "@/lib/http/safe-fetch";

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
      return res.end();
    }
    if (req.url === "/slow") return; // never answers
    if (req.url === "/big") {
      res.writeHead(200);
      return res.end("x".repeat(100_000));
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetEnvCache();
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  resetEnvCache();
});

describe("outbound address rules", () => {
  it.each([
    "10.1.2.3",
    "127.0.0.1",
    "169.254.169.254",
    "172.16.0.1",
    "192.168.0.10",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "fe80::1",
    "fd00:ec2::254",
    "::ffff:10.0.0.1",
    "::ffff:a00:1",
    "224.0.0.1",
  ])("blocks %s", (ip) => expect(isBlockedAddress(ip)).toBe(true));
  it.each(["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (ip) => expect(isBlockedAddress(ip)).toBe(false));

  it("refuses non-https, private literals and local names before any connection", () => {
    expect(outboundUrlProblem("http://example.com/x")).toBe("must be an https URL");
    expect(outboundUrlProblem("https://10.0.0.1/x")).toMatch(/private/);
    expect(outboundUrlProblem("https://intranet/x")).toBe("must name a public host");
    expect(outboundUrlProblem("https://example.com/x")).toBeNull();
    // An allowed test host may be loopback and plain http.
    expect(outboundUrlProblem(`${base}/x`)).toBeNull();
    expect(outboundUrlProblem("http://127.0.0.1:1/x")).toBe("must be an https URL");
  });

  it("refuses at connect time a name that resolves to a blocked address", async () => {
    setResolverForTests(() => [{ address: "127.0.0.1", family: 4 }]);
    try {
      const err = await new Promise<Error | null>((resolve) => guardedLookup("hook.test", {}, (e) => resolve(e)));
      expect(err?.message).toMatch(/resolves to a blocked address/);
    } finally {
      setResolverForTests(null);
    }
  });
});

describe("safeFetch", () => {
  it("returns the answer of an allowed host", async () => {
    const res = await safeFetch(`${base}/ok`, { method: "POST", body: "{}" });
    expect(res).toMatchObject({ status: 200, body: "ok" });
  });
  it("does not follow redirects", async () => {
    const res = await safeFetch(`${base}/redirect`);
    expect(res.status).toBe(302);
  });
  it("gives up after the timeout", async () => {
    await expect(safeFetch(`${base}/slow`, { timeoutMs: 300 })).rejects.toThrow(/timed out/);
  });
  it("stops waiting when its signal aborts, before the deadline", async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    // Cancelled, not "timed out": the signal ended the wait, not the (test-outliving) deadline.
    await expect(safeFetch(`${base}/slow`, { timeoutMs: 120_000, signal: abort.signal })).rejects.toThrow(/cancelled before an answer came/);
  });
  it("caps the body it reads", async () => {
    const res = await safeFetch(`${base}/big`, { maxBytes: 1000 });
    expect(res.body.length).toBe(1000);
  });
  it("refuses a private URL without connecting", async () => {
    await expect(safeFetch("https://169.254.169.254/latest/meta-data")).rejects.toThrow(/private/);
    // A row stored before the port rule (an approval's callback_url) is refused when sent, before any connection.
    await expect(safeFetch("https://example.com:25/hook")).rejects.toThrow(/must not use port 25/);
  });
});
