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
