import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { OWNER_EMAIL, OWNER_PASSWORD, seedKey, seedProject } from "@/lib/testing/seed";
import { seedEvents } from "@/lib/testing/events";

let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject();
});
afterAll(() => server.close());

/**
 * Reads an SSE response block by block. `opened` resolves once the server's `: stream open` comment has arrived
 * (its subscription is live, so nothing sent after it is missed); `until` collects messages up to a matching one.
 * No deadline: the test's own timeout ends a stream that never delivers.
 */
function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const nextBlock = async (): Promise<string | null> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return block;
      }
      const { done, value } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return {
    async opened() {
      for (let block = await nextBlock(); block !== null; block = await nextBlock()) if (/^: stream open$/m.test(block)) return;
      throw new Error("the stream ended before it opened");
    },
    async until(match: (data: Record<string, unknown>) => boolean) {
      const messages: { event: string; data: Record<string, unknown> }[] = [];
      try {
        for (let block = await nextBlock(); block !== null; block = await nextBlock()) {
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || !data) continue;
          messages.push({ event, data: JSON.parse(data) });
          if (match(JSON.parse(data))) return messages;
        }
      } finally {
        await reader.cancel().catch(() => {});
      }
      throw new Error(`no matching message in ${JSON.stringify(messages)}`);
    },
  };
}

// The event inbox's changes on the live stream (`event_change` frames); mail events are in live-stream.test.ts.
describe("GET /api/v1/stream (SSE)", () => {
  it("streams the project's event changes to an API key with inbox:read, and nothing of other projects", async () => {
    const res = await fetch(`${server.url}/api/v1/stream`, { headers: { authorization: `Bearer ${project.secret}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const other = await seedProject({ name: "elsewhere" });
    const stream = sseReader(res);
    await stream.opened();
    await seedEvents(other.project.id, [{ type: "not.yours" }]);
    await seedEvents(project.project.id, [{ type: "live.one" }]);
    const messages = (await stream.until((d) => d.event_type === "live.one")).filter((m) => m.event === "event_change");
    expect(messages.map((m) => m.data.event_type)).toEqual(["live.one"]);
    expect(messages[0]).toMatchObject({ event: "event_change", data: { type: "event_change", source: "brynth", status: "pending" } });
    expect(messages[0].data).not.toHaveProperty("payload");
  });

  it("announces claims and acks made through the tools", async () => {
    const [id] = await seedEvents(project.project.id, [{ type: "live.claimed" }]);
    const res = await fetch(`${server.url}/api/v1/stream`, { headers: { authorization: `Bearer ${project.secret}` } });
    const call = (path: string) =>
      fetch(`${server.url}/api/v1/events/${id}/${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${project.secret}`, "content-type": "application/json" },
        body: "{}",
      });
    const stream = sseReader(res);
    await stream.opened();
    expect((await call("claim")).status).toBe(200);
    expect((await call("ack")).status).toBe(200);
    const messages = await stream.until((d) => d.event_id === id && d.status === "done");
    const statuses = messages.filter((m) => m.data.event_id === id).map((m) => m.data.status);
    // On PostgreSQL the seeded event's own notice can still be on its way when the stream opens; NOTIFYs arrive in
    // commit order, so if it shows, it shows first.
    expect([
      ["claimed", "done"],
      ["pending", "claimed", "done"],
    ]).toContainEqual(statuses);
  });

  it("accepts the owner (here with HTTP Basic, as the dashboard cookie would) for the chosen project", async () => {
    const basic = Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64");
    const res = await fetch(`${server.url}/api/v1/stream?project=${project.project.id}`, { headers: { authorization: `Basic ${basic}` } });
    expect(res.status).toBe(200);
    const stream = sseReader(res);
    await stream.opened();
    await seedEvents(project.project.id, [{ type: "owner.sees" }]);
    const messages = await stream.until((d) => d.event_type === "owner.sees");
    expect(messages.at(-1)!.data.event_type).toBe("owner.sees");
  });

  it("refuses no credentials (401) and a key with neither inbox:read nor message_read (403)", async () => {
    expect((await fetch(`${server.url}/api/v1/stream`)).status).toBe(401);
    const { secret } = await seedKey(project.project.id, ["ledger:read"], "no inbox");
    const res = await fetch(`${server.url}/api/v1/stream`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("missing_permission");
  });
});
