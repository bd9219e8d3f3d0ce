import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { getDb } from "@/lib/db/client";
import { closeAllSockets, upgradeStatus } from "@/lib/http/stream/stream-test-client";
import { startOwnerSession } from "@/lib/owners/owner-sessions";
import { startApiServer } from "@/lib/testing/api-server";
import { seedEvents } from "@/lib/testing/events";
import { OWNER_EMAIL, OWNER_PASSWORD, seedOwner, seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let first: Awaited<ReturnType<typeof seedProject>>;
let chosen: Awaited<ReturnType<typeof seedProject>>;
const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;

beforeAll(async () => {
  server = await startApiServer();
  first = await seedProject({ name: "first" });
  chosen = await seedProject({ name: "chosen" });
});
afterAll(() => {
  closeAllSockets();
  return server.close();
});

/** Collects the `data` of each SSE message of `event` as it arrives; `open` resolves once the subscription is live. */
function collect(res: Response, event: string) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const seen: Record<string, unknown>[] = [];
  let buffer = "";
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^: stream open$/m.test(block)) opened();
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (block.startsWith(`event: ${event}\n`) && data) seen.push(JSON.parse(data));
      }
    }
  })();
  return { open, seen, stop: () => reader.cancel().catch(() => {}) };
}

const ask = (secret: string, question: string) =>
  fetch(`${server.url}/api/v1/questions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ question, wait_seconds: 0 }),
  }).then(async (r) => (await r.json()) as { request_id: string });

// streamActor: both SSE streams take the owner's project from X-Brynth-Project, as owner REST does.
describe("an owner's stream", () => {
  it("follows X-Brynth-Project on /api/v1/stream", async () => {
    const res = await fetch(`${server.url}/api/v1/stream`, { headers: { authorization: basic, "x-brynth-project": chosen.project.id } });
    expect(res.status).toBe(200);
    const stream = collect(res, "event_change");
    await stream.open;
    await seedEvents(first.project.id, [{ type: "first.one" }]);
    await seedEvents(chosen.project.id, [{ type: "chosen.one" }]);
    await vi.waitFor(() => expect(stream.seen.map((d) => d.event_type)).toContain("chosen.one"), { timeout: 10_000 });
    await stream.stop();
    expect(stream.seen.map((d) => d.event_type)).toEqual(["chosen.one"]);
  });

  it("follows X-Brynth-Project on /api/v1/approvals/stream", async () => {
    const res = await fetch(`${server.url}/api/v1/approvals/stream`, { headers: { authorization: basic, "x-brynth-project": chosen.project.id } });
    expect(res.status).toBe(200);
    const stream = collect(res, "request");
    await stream.open;
    const other = (await ask(first.secret, "First project?")).request_id;
    const wanted = (await ask(chosen.secret, "Chosen project?")).request_id;
    await vi.waitFor(() => expect(stream.seen.map((d) => d.id)).toContain(wanted), { timeout: 10_000 });
    await stream.stop();
    expect(stream.seen.map((d) => d.id)).not.toContain(other);
  });

  it("refuses a project the owner does not have on both streams, as owner REST does", async () => {
    for (const path of ["/api/v1/stream", "/api/v1/approvals/stream", "/api/v1/keys"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: basic, "x-brynth-project": "prj_nope" } });
      expect([path, res.status, (await res.json()).error.code]).toEqual([path, 404, "NOT_FOUND"]);
    }
  });
});

describe("the owner's session cookie", () => {
  // The cookie of an instance served on a loopback name goes with requests from every other port of that name (a
  // cookie knows no port), and isAllowedOrigin admits every loopback page: a WebSocket, which no CORS guards, opened
  // from a page on http://127.0.0.1:<any port> read the owner's live stream.
  it("opens a stream only from one of this instance's own origins, as owner REST does", async () => {
    const owner = await seedOwner();
    const session = await startOwnerSession(await getDb(), { ownerId: owner.id });
    const cookie = `next-auth.session-token=${await encode({ token: { sid: session.id }, secret: nextAuthSecret() })}`;
    const foreign = "http://127.0.0.1:1";
    expect(await upgradeStatus(server.url, { cookie, origin: foreign })).toBe(403);
    const sse = await fetch(`${server.url}/api/v1/stream`, { headers: { cookie, origin: foreign } });
    expect(sse.status).toBe(403);
    expect(await upgradeStatus(server.url, { cookie, origin: server.url })).toBe(101);
    // The dashboard's own EventSource: same-origin, so no Origin header, and the browser says so.
    const own = await fetch(`${server.url}/api/v1/stream`, { headers: { cookie, "sec-fetch-site": "same-origin" } });
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});
