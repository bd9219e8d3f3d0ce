import { afterAll, beforeAll, expect, it } from "vitest";
import WebSocket from "ws";
import { getDb } from "@/lib/db/client";
import { emitEvent } from "@/lib/events/emit-event";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

const wsUrl = () => `${server.url.replace("http", "ws")}/api/v1/stream`;

it("streams the project's events over WebSocket with an API key", async () => {
  const { secret, project } = await seedProject({ scopes: ["inbox:read"] });
  const ws = new WebSocket(wsUrl(), { headers: { authorization: `Bearer ${secret}` } });
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  const received = new Promise<{ event: string; data: { type: string } }>((resolve) => ws.on("message", (m) => resolve(JSON.parse(String(m)))));
  const db = await getDb();
  await db.transaction((tx) => emitEvent(tx, { projectId: project.id, type: "ws.test", payload: { a: 1 } }));
  const msg = await received;
  expect(msg.event).toBe("event");
  expect(msg.data.type).toBe("ws.test");
  ws.close();
});

it("refuses the upgrade without a key and for a key without inbox:read", async () => {
  const statusOf = (headers: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(wsUrl(), { headers });
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
      ws.on("error", () => {});
    });
  expect(await statusOf({})).toBe(401);
  const { secret } = await seedProject({ scopes: ["disk"] });
  expect(await statusOf({ authorization: `Bearer ${secret}` })).toBe(403);
});
