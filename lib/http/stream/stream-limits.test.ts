import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { MAX_PENDING_FRAMES } from "@/lib/http/stream/stream-session";
import { handleStreamUpgrade } from "@/lib/http/stream/ws-stream";
import { closeAllSockets, streamSocket, upgradeStatus } from "@/lib/http/stream/stream-test-client";

/** What one API key may take of the live stream, over real sockets: streams held at once, frames waiting on one. */
let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;
const streamEnv = envSettings("STREAM_");
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject({ name: "Stream limits" });
});
afterEach(() => {
  closeAllSockets();
  streamEnv.restore();
});
afterAll(async () => {
  await server.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("live streams per key", () => {
  it("refuses a key's stream past STREAM_MAX_PER_KEY with 429 and Retry-After, on every stream, and frees a slot when one closes", async () => {
    streamEnv.set({ STREAM_MAX_PER_KEY: "3" });
    const headers = bearer(project.secret);
    const sockets = [await streamSocket(server.url, headers), await streamSocket(server.url, headers)];
    const sse = await fetch(`${server.url}/api/v1/stream`, { headers });
    expect(sse.status).toBe(200);

    expect(await upgradeStatus(server.url, headers)).toBe(429);
    const refused = await fetch(`${server.url}/api/v1/stream`, { headers });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatchObject({ code: "rate_limited" });
    const approvals = await fetch(`${server.url}/api/v1/approvals/stream`, { headers });
    expect(approvals.status).toBe(429);

    // Another key of the same project has its own slots.
    const other = await seedKey(project.project.id, ["message_read"]);
    expect(await upgradeStatus(server.url, bearer(other.secret))).toBe(101);

    // A closed WebSocket and an SSE the client went away from each give their slot back.
    sockets[0].ws.terminate();
    await sse.body?.cancel();
    await sleep(200);
    expect(await upgradeStatus(server.url, headers)).toBe(101);
    const again = await fetch(`${server.url}/api/v1/stream`, { headers });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});

describe("a client gone before its upgrade is answered", () => {
  it("gives the slot back when its URL subscription is refused after it hung up", async () => {
    streamEnv.set({ STREAM_MAX_PER_KEY: "1" });
    const key = await seedKey(project.project.id, ["message_read"]);
    const { host } = new URL(server.url);
    const headers = { host, upgrade: "websocket", connection: "Upgrade", authorization: `Bearer ${key.secret}` };
    // The socket closed before the upgrade's slot was taken (its close already fired), and the upgrade names an
    // inbox that is not there, refused after the slot is taken.
    const gone = new PassThrough();
    gone.destroy();
    await new Promise((r) => gone.once("close", r));
    const req = { method: "GET", url: "/api/v1/stream?inbox_ids=mbx_notthere", headers } as unknown as IncomingMessage;
    await handleStreamUpgrade(req, gone, Buffer.alloc(0), server.url);
    expect(await upgradeStatus(server.url, bearer(key.secret))).toBe(101);
  });
});

describe("frames sent faster than they are answered", () => {
  it("answers a frame past MAX_PENDING_FRAMES rate_limited at once instead of holding it, and the socket stays usable", async () => {
    const ws = await streamSocket(server.url, bearer(project.secret));
    // Each subscribe looks its inbox up in the database; 200 sent without waiting arrive long before the answers.
    const frame = JSON.stringify({ type: "subscribe", inbox_ids: [`${"x".repeat(200)}@nowhere.example`] });
    for (let i = 0; i < 200; i++) ws.send(frame);
    await ws.next(() => ws.frames.length >= 200);
    const codes = ws.frames.map((f) => String(f.code));
    // Every frame gets one answer: its own, or rate_limited for those past the MAX_PENDING_FRAMES still waiting.
    expect(codes.length).toBe(200);
    expect(codes.filter((c) => c !== "rate_limited").length).toBeGreaterThanOrEqual(MAX_PENDING_FRAMES);
    expect(codes.filter((c) => c === "rate_limited").length).toBeGreaterThan(0);
    expect(codes.filter((c) => c !== "rate_limited").every((c) => c === "NOT_FOUND")).toBe(true);
    expect(ws.frames.find((f) => f.code === "rate_limited")?.fix).toMatch(/Wait for each frame's answer/);
    // Once the answers are out, frames are taken again.
    expect(await ws.subscribe({})).toMatchObject({ type: "subscribed" });
    ws.send({ type: "ping" });
    await ws.next((f) => f.type === "pong");
  });
});
