import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeOutboundAgents, safeFetch, setResolverForTests } from "@/lib/http/safe-fetch";
import { envSettings } from "@/lib/testing/env-settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

/** safeFetch's keep-alive agents (design §2.10 c): one connection reused, and the guard still on every new socket. */
const settings = envSettings("OUTBOUND_");
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
});
afterAll(async () => {
  setResolverForTests(null);
  settings.restore();
  await receiver.close();
});

describe("safeFetch connection reuse", () => {
  it("sends one endpoint's requests over one kept-alive connection", async () => {
    const url = receiver.endpoint("/pool", { secrets: [] });
    closeOutboundAgents();
    const before = receiver.connections;
    for (let i = 0; i < 5; i++) expect((await safeFetch(url, { method: "POST", body: "{}" })).status).toBe(200);
    expect(receiver.connections - before).toBe(1);
    expect(receiver.at("/pool")).toHaveLength(5);
  });

  it("opens a new socket, through the guard, once the pooled ones are gone", async () => {
    const asked: string[] = [];
    // A name that resolves to loopback: the guard refuses it on each new connection, pool or not.
    setResolverForTests((name) => {
      asked.push(name);
      return [{ address: "127.0.0.1", family: 4 }];
    });
    const before = receiver.connections;
    for (let i = 0; i < 2; i++) {
      await expect(safeFetch(`https://pool.test:${receiver.port}/pool`, { method: "POST", body: "{}" })).rejects.toThrow(
        "pool.test resolves to a blocked address",
      );
    }
    expect(asked).toEqual(["pool.test", "pool.test"]);
    expect(receiver.connections).toBe(before);
  });
});

describe("safeFetch agent eviction", () => {
  it("lets a request in flight finish when 256 other hosts push its agent out", async () => {
    // An endpoint that answers only when told, so the request is still open while the other hosts are asked.
    const held: ServerResponse[] = [];
    const slow = createServer((_req, res) => held.push(res));
    let closed = 0;
    slow.on("connection", (socket) => socket.on("close", () => closed++));
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    const port = (slow.address() as AddressInfo).port;
    settings.set({ OUTBOUND_ALLOW_HOSTS: `${receiver.host},127.0.0.1:${port}` });
    try {
      // The other hosts resolve to a private address (this also closes every pooled connection, so set it first).
      setResolverForTests(() => [{ address: "10.0.0.1", family: 4 }]);
      const inFlight = safeFetch(`http://127.0.0.1:${port}/late`, { method: "POST", body: "{}" });
      while (held.length === 0) await new Promise((r) => setTimeout(r, 10));
      // 256 other origins, each refused by the guard before any connection: enough to evict the first agent.
      for (let i = 0; i < 256; i++) await expect(safeFetch(`https://h${i}.evict.test/`)).rejects.toThrow(/blocked address/);
      held[0].writeHead(200);
      held[0].end("late but whole");
      // Before: the evicted agent was destroyed with its busy socket, and this request failed with "socket hang up".
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.body).toBe("late but whole");
      // The retired agent keeps no idle socket: the connection closes once its request is done.
      while (closed === 0) await new Promise((r) => setTimeout(r, 10));
    } finally {
      setResolverForTests(null);
      settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
      slow.closeAllConnections();
      slow.close();
    }
  });
});
