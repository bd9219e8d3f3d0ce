import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { closeAllSockets, streamSocket } from "@/lib/http/stream/stream-test-client";
import { watchProcessFaults } from "@/lib/testing/fuzz/process-faults";

/**
 * A subscription a hostile client writes, on both transports: text PostgreSQL cannot match (a NUL, a lone surrogate)
 * in what the stream looks up, and a `since` later than timestamptz holds. Each is refused as a validation_error
 * naming its field, before `subscribed`, and the server logs nothing unexpected.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;
let faults: ReturnType<typeof watchProcessFaults>;
let streamFailures: string[];
const consoleError = console.error;
beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject({ name: "Hostile stream" });
  faults = watchProcessFaults();
  // The stream's own log of a failure after it opened (stream-session.ts), which process-faults does not watch.
  streamFailures = [];
  const watched = console.error;
  console.error = (...args: unknown[]) => {
    if (args[0] === "[brynth] stream failed") streamFailures.push(String(args[1]));
    watched(...args);
  };
});
afterAll(async () => {
  console.error = consoleError;
  faults.stop();
  closeAllSockets();
  await server.close();
});

const auth = () => ({ authorization: `Bearer ${project.secret}` });
const CASES: { query: string; frame: Record<string, unknown>; field: string }[] = [
  { query: "since=mev_%00", frame: { since: "mev_\u0000" }, field: "since" },
  { query: `since=${encodeURIComponent("9999-12-31T23:59:59-14:00")}`, frame: { since: "9999-12-31T23:59:59-14:00" }, field: "since" },
  { query: "inbox_ids=a%00b%40example.com", frame: { inbox_ids: ["a\u0000b@example.com"] }, field: "inbox_ids.0" },
];

describe("live stream: a subscription the database cannot look up", () => {
  it("SSE refuses it with 400 naming the field, before the stream opens", async () => {
    for (const c of CASES) {
      const res = await fetch(`${server.url}/api/v1/stream?${c.query}`, { headers: auth() });
      const body = await res.json();
      expect([c.query, res.status]).toEqual([c.query, 400]);
      expect(body.error).toMatchObject({ code: "validation_error" });
      expect(body.error.details.map((d: { field: string }) => d.field)).toContain(c.field);
    }
    expect(faults.take()).toEqual([]);
  });

  it("a WebSocket answers an error frame naming the field, never `subscribed`, and stays usable", async () => {
    const ws = await streamSocket(server.url, auth());
    for (const c of [...CASES, { frame: { since: "mev_\ud800" }, field: "since" }, { frame: { inbox_ids: ["mbx_\udfff"] }, field: "inbox_ids.0" }]) {
      const answer = await ws.subscribe(c.frame);
      expect(answer).toMatchObject({ type: "error", code: "validation_error" });
      expect(String(answer.message).startsWith(`${c.field}: `)).toBe(true);
    }
    expect(ws.frames.some((f) => f.type === "subscribed")).toBe(false);
    expect(await ws.subscribe({ since: new Date(Date.now() - 60_000).toISOString() })).toMatchObject({ type: "subscribed" });
    ws.send({ type: "ping" });
    await ws.next((f) => f.type === "pong");
    expect(ws.frames.filter((f) => f.type === "error" && f.code === "internal_error")).toEqual([]);
    expect(faults.take()).toEqual([]);
    expect(streamFailures).toEqual([]);
  });
});
