import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";

/** Open connections per client address (HTTP_MAX_CONNECTIONS_PER_IP), over real sockets. */
const capEnv = envSettings("HTTP_MAX_CONNECTIONS_PER_IP");
const proxyEnv = envSettings("TRUST_PROXY");
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  capEnv.restore();
  proxyEnv.restore();
});

async function server() {
  const s = await startApiServer();
  closers.push(() => s.close());
  return new URL(s.url);
}

/** A socket that opened and holds its connection without sending a byte, as a slow client does. */
async function hold(url: URL): Promise<Socket> {
  const socket = connect(Number(url.port), url.hostname);
  closers.push(() => socket.destroy());
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return socket;
}

/** What the server says to a request on a new connection, until it closes it or the answer's head is in. */
async function ask(url: URL): Promise<string> {
  const socket = await hold(url);
  socket.write(`GET /api/v1/whoami HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
  let got = "";
  for await (const chunk of socket) got += chunk;
  return got;
}

describe("open connections per client address", () => {
  it("answers one over HTTP_MAX_CONNECTIONS_PER_IP with 429 and closes it; a closed one frees its place", async () => {
    capEnv.set({ HTTP_MAX_CONNECTIONS_PER_IP: "3" });
    const url = await server();
    const held = [await hold(url), await hold(url), await hold(url)];
    const over = await ask(url);
    expect(over).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(over).toContain("Retry-After: 5");
    held[0].destroy();
    await new Promise((r) => setTimeout(r, 100));
    // The place is free again: this request reaches the API, which asks for a key.
    expect(await ask(url)).toMatch(/^HTTP\/1\.1 401 /);
  });

  it("is not applied behind a reverse proxy, where every connection comes from the proxy", async () => {
    capEnv.set({ HTTP_MAX_CONNECTIONS_PER_IP: "2" });
    proxyEnv.set({ TRUST_PROXY: "true" });
    const url = await server();
    for (let i = 0; i < 4; i++) await hold(url);
    expect(await ask(url)).toMatch(/^HTTP\/1\.1 401 /);
  });
});
