import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { seedKey, seedProject } from "@/lib/testing/seed";

/** Waiting calls one key holds at once (KEY_MAX_WAITS), over real HTTP. */
let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;
const keyEnv = envSettings("KEY_MAX_WAITS");
const opened: AbortController[] = [];

beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject({ name: "Waits" });
});
afterEach(() => {
  for (const c of opened.splice(0)) c.abort();
  keyEnv.restore();
});
afterAll(async () => {
  await server.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const headers = (secret: string) => ({ authorization: `Bearer ${secret}`, "content-type": "application/json" });

/** An inbox_wait left running until the test ends (its client then goes away). */
function holdWait(secret: string) {
  const c = new AbortController();
  opened.push(c);
  return fetch(`${server.url}/api/v1/events/wait?timeout_seconds=60`, { headers: headers(secret), signal: c.signal }).catch(() => null);
}

describe("waiting calls per key", () => {
  it("refuses an inbox_wait past KEY_MAX_WAITS with 429, answers an approval at once as pending, and frees a slot when a wait ends", async () => {
    keyEnv.set({ KEY_MAX_WAITS: "2" });
    void holdWait(project.secret);
    void holdWait(project.secret);
    await sleep(500);

    const refused = await fetch(`${server.url}/api/v1/events/wait?timeout_seconds=60`, { headers: headers(project.secret), signal: AbortSignal.timeout(5000) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatchObject({ code: "rate_limited" });

    // The request is made either way; past the limit the call does not wait for it (else the 5 s abort fails it).
    const asked = await fetch(`${server.url}/api/v1/approvals`, {
      method: "POST",
      headers: headers(project.secret),
      body: JSON.stringify({ action: "refund", summary: "Refund order 1 (1 €)?", wait_seconds: 60 }),
      signal: AbortSignal.timeout(5000),
    });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({ status: "pending" });

    // Another key has its own slots.
    const other = await seedKey(project.project.id, ["inbox:read"]);
    expect((await fetch(`${server.url}/api/v1/events/wait?timeout_seconds=1`, { headers: headers(other.secret) })).status).toBe(200);

    // A client that goes away ends its wait and gives its slot back.
    for (const c of opened.splice(0)) c.abort();
    await sleep(300);
    expect((await fetch(`${server.url}/api/v1/events/wait?timeout_seconds=1`, { headers: headers(project.secret) })).status).toBe(200);
  });
});
