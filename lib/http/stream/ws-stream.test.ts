import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { emitEvent } from "@/lib/events/emit-event";
import { closeAllSockets, streamSocket, upgradeStatus } from "@/lib/http/stream/stream-test-client";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  closeAllSockets();
  await server.close();
});

// The event inbox's changes over the WebSocket protocol; mail events and the protocol itself: live-stream.test.ts.
it("sends the project's event changes over WebSocket to a key with inbox:read once it has subscribed", async () => {
  const { secret, project } = await seedProject({ scopes: ["inbox:read"] });
  const s = await streamSocket(server.url, { authorization: `Bearer ${secret}` });
  expect(await s.subscribe()).toMatchObject({ type: "subscribed", event_changes: true });
  const db = await getDb();
  await db.transaction((tx) => emitEvent(tx, { projectId: project.id, type: "ws.test", payload: { a: 1 } }));
  const f = await s.next((m) => m.type === "event_change");
  expect(f).toMatchObject({ type: "event_change", event_type: "ws.test", source: "brynth", status: "pending", event_id: expect.stringMatching(/^evt_/) });
  expect(f).not.toHaveProperty("payload");
  s.close();
});

it("refuses the upgrade without a key and for a key with neither inbox:read nor message_read", async () => {
  expect(await upgradeStatus(server.url)).toBe(401);
  const { secret } = await seedProject({ scopes: ["disk"] });
  expect(await upgradeStatus(server.url, { authorization: `Bearer ${secret}` })).toBe(403);
});
