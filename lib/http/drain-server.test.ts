import { Agent, request, type IncomingMessage } from "node:http";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { kvEntries } from "@/lib/db/schema/disk";
import { drainOnStop } from "@/lib/http/drain-server";
import { closeAllSockets, streamSocket } from "@/lib/http/stream/stream-test-client";
import { RESTARTING } from "@/lib/http/stream/ws-stream";
import { resetServerStopping } from "@/lib/services/server-stopping";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

/**
 * A stopping server (SIGTERM) through drainOnStop, on the real API: what is in flight finishes, waits and streams
 * end with answers that say to ask again, and only what outlasts the grace is cut.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let drain: ReturnType<typeof drainOnStop>;
let auth: Record<string, string>;
beforeEach(async () => {
  server = await startApiServer();
  drain = drainOnStop(server.server);
  const { secret } = await seedProject({ scopes: ["disk", "inbox:read"] });
  auth = { authorization: `Bearer ${secret}` };
});
afterEach(async () => {
  closeAllSockets();
  await server.close();
  resetServerStopping();
});

type Answer = { status: number; headers: IncomingMessage["headers"]; body: string };
const answerOf = (res: IncomingMessage) =>
  new Promise<Answer>((resolve, reject) => {
    let body = "";
    res.setEncoding("utf8");
    res.on("data", (c: string) => (body += c));
    res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    res.on("error", reject);
  });

/** A PUT whose body is sent in two halves: resolves with the request (first half sent) and its answer to come. */
function halfSentPut(path: string, body: string, agent?: Agent) {
  const req = request(`${server.url}${path}`, {
    method: "PUT",
    agent,
    headers: { ...auth, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on("response", (res) => answerOf(res).then(resolve, reject));
    req.on("error", reject);
  });
  answer.catch(() => {});
  req.write(body.slice(0, 5));
  req.flushHeaders();
  return { rest: () => req.end(body.slice(5)), answer };
}

const get = (path: string, agent?: Agent) =>
  new Promise<Answer>((resolve, reject) => {
    request(`${server.url}${path}`, { agent, headers: auth }, (res) => answerOf(res).then(resolve, reject))
      .on("error", reject)
      .end();
  });

describe("drainOnStop", () => {
  it("answers a request whose body is still arriving in full, with Connection: close, and stores what it wrote", async () => {
    const put = halfSentPut("/api/v1/kv/drained", JSON.stringify({ value: { kept: true } }));
    // The server has the request (its headers and part of the body) before the stop begins.
    await new Promise((r) => setTimeout(r, 100));
    const stopped = drain(10_000);
    setTimeout(put.rest, 200);
    const answer = await put.answer;
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe("close");
    expect(await stopped).toEqual({ cut: 0, requests: [] });
    // It was stored, and the server takes no new connection.
    const rows = await (await getDb()).select({ value: kvEntries.value }).from(kvEntries).where(eq(kvEntries.key, "drained"));
    expect(rows.map((r) => JSON.parse(r.value))).toEqual([{ kept: true }]);
    await expect(get("/api/v1/whoami")).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("answers a request sent on a kept-alive connection during the drain with Connection: close, and closes an unused one", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    // Two kept-alive connections: one the client goes on using, one it leaves alone.
    await Promise.all([get("/api/v1/whoami", agent), get("/api/v1/whoami", agent)]);
    const sockets = Object.values(agent.freeSockets).flat();
    expect(sockets).toHaveLength(2);
    const closed = Promise.all(sockets.map((s) => new Promise((r) => s!.once("close", r))));
    const stopped = drain(10_000);
    // Sent on a kept-alive connection after the stop began: answered, and told the connection closes.
    const during = await get("/api/v1/whoami", agent);
    expect(during.status).toBe(200);
    expect(during.headers.connection).toBe("close");
    expect(await stopped).toEqual({ cut: 0, requests: [] });
    await closed;
    agent.destroy();
  });

  it("ends an inbox_wait with its timeout answer instead of holding the stop for its 60 s", async () => {
    const waiting = get("/api/v1/events/wait?timeout_seconds=60");
    await new Promise((r) => setTimeout(r, 300));
    // A grace far shorter than the wait: the wait answering is what lets nothing be cut.
    expect(await drain(3_000)).toEqual({ cut: 0, requests: [] });
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ event: null });
  });

  it("ends live streams so their clients reconnect: WebSocket with 1012, SSE with a clean end", async () => {
    const ws = await streamSocket(server.url, auth);
    expect(await ws.subscribe()).toMatchObject({ type: "subscribed" });
    const sse = await fetch(`${server.url}/api/v1/stream?event_changes=true`, { headers: auth });
    expect(sse.status).toBe(200);
    const body = sse.text();
    const wsClosed = new Promise<number>((r) => ws.ws.once("close", (code) => r(code)));
    expect(await drain(3_000)).toEqual({ cut: 0, requests: [] });
    expect(await wsClosed).toBe(RESTARTING.code);
    expect(ws.closed()).toEqual(RESTARTING);
    // Read to its end without an error: ended, not cut.
    expect(await body).toContain(": stream open");
  });

  it("cuts a request that outlasts the grace, and counts it", async () => {
    const put = halfSentPut("/api/v1/kv/never-finished", JSON.stringify({ value: 1 }));
    await new Promise((r) => setTimeout(r, 100));
    expect(await drain(200)).toEqual({ cut: 1, requests: [expect.stringMatching(/^PUT \/api\/v1\/kv\/never-finished \(0\.\d s\)$/)] });
    await expect(put.answer).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|EPIPE/) });
  });
});
