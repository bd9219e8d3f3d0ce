import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { seedSource } from "@/lib/testing/events";
import { seedProject } from "@/lib/testing/seed";

/**
 * A signed source's rate (SOURCE_DELIVERIES_PER_MINUTE) is taken before the body is read. A body that fails to read
 * (oversized and unannounced, or cut off) kept the token and charged nobody, so anyone who knew the URL held the real
 * sender at 429 without knowing the secret. It is now given back and charged to the sender's address, as a forged
 * delivery is.
 */
const settings = envSettings("SOURCE_DELIVERIES_");
const hooks = envSettings("WEBHOOK_MAX_");
const unknown = envSettings("UNKNOWN_HOOKS_");
const proxy = envSettings("TRUST_PROXY");
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  settings.set({ SOURCE_DELIVERIES_PER_MINUTE: "3" });
  hooks.set({ WEBHOOK_MAX_BODY_BYTES: "1024" });
  unknown.set({ UNKNOWN_HOOKS_PER_MINUTE: "100" });
  proxy.set({ TRUST_PROXY: "1" });
  server = await startApiServer();
  seeded = await seedProject();
});
afterAll(async () => {
  await server.close();
  settings.restore();
  hooks.restore();
  unknown.restore();
  proxy.restore();
});

it("an attacker's oversized (chunked) deliveries do not spend a signed source's rate", async () => {
  const secret = "source-secret-0123456789";
  const { url } = await seedSource(seeded.actor, { name: "signed", verification: "hmac_sha256", secret, signature_header: "x-signature" });
  const big = new TextEncoder().encode(`{"pad":"${"x".repeat(4096)}"}`);
  for (let i = 0; i < 3; i++) {
    // No Content-Length: the size is only found out while reading, after the source's token was taken.
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(big);
        c.close();
      },
    });
    const res = await fetch(url!, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.66", "x-signature": "00" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  }
  const real = `{"type":"real"}`;
  const res = await fetch(url!, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7", "x-signature": createHmac("sha256", secret).update(real).digest("hex") },
    body: real,
  });
  // Observed: 429 rate_limited — the real sender is held off by requests that never proved to be the source's.
  expect(res.status).toBe(200);
});
