import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { createKey } from "@/lib/keys/create-key";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { seedOwner, seedProject } from "@/lib/testing/seed";
import { closeAllSockets, streamSocket, upgradeStatus } from "@/lib/http/stream/stream-test-client";
import { MAX_BACKLOG_BYTES } from "@/lib/http/stream/stream-session";
import type { WebSocket } from "ws";

/**
 * A key restricted to a mailbox that was deleted since may call whoami and nothing else (design §2.6), the live stream
 * included. Before, such a key still opened it, and a replay from `since` handed it the deleted mailbox's mail,
 * bodies included; a socket open when the mailbox was deleted stayed open.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  closeAllSockets();
  await server.close();
});

async function setup() {
  const seeded = await seedProject({ name: "Deleted mailbox stream" });
  const owner = await seedOwner();
  const box = await seedMailbox(seeded.project.id);
  await seedReceivedMail(seeded.project.id, box.id);
  const db = await getDb();
  const { secret } = await db.transaction(async (tx) =>
    createKey(tx, { actor: await ownerActor(tx, owner, seeded.project.id, "dashboard"), name: "box only", scopes: ["message_read"], mailbox_id: box.id }),
  );
  // The restricted key works while the mailbox lives.
  const before = await fetch(`${server.url}/api/v1/stream?since=${new Date(Date.now() - 3_600_000).toISOString()}`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  expect(before.status).toBe(200);
  await before.body?.cancel();
  await db.transaction(async (tx) => deleteMailbox(tx, { actor: await ownerActor(tx, owner, seeded.project.id, "dashboard"), inboxId: box.id }));
  // REST agrees it may do nothing but whoami now.
  const rest = await fetch(`${server.url}/api/v1/threads`, { headers: { authorization: `Bearer ${secret}` } });
  expect(rest.status).toBe(403);
  return { secret };
}

describe("live stream of a key whose mailbox was deleted", () => {
  it("refuses the SSE stream (missing_permission) instead of replaying the deleted mailbox's mail", async () => {
    const { secret } = await setup();
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const res = await fetch(`${server.url}/api/v1/stream?since=${since}`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({ code: "missing_permission", message: expect.stringContaining("deleted") });
  });

  it("refuses the WebSocket too", async () => {
    const { secret } = await setup();
    expect(await upgradeStatus(server.url, { authorization: `Bearer ${secret}` })).toBe(403);
  });
});

describe("a stream already open when its key's mailbox is deleted", () => {
  it("is closed with 1008, as when the key is revoked", async () => {
    const seeded = await seedProject({ name: "Deleted mailbox, open socket" });
    const owner = await seedOwner();
    const box = await seedMailbox(seeded.project.id);
    const db = await getDb();
    const { secret } = await db.transaction(async (tx) =>
      createKey(tx, { actor: await ownerActor(tx, owner, seeded.project.id, "dashboard"), name: "box only", scopes: ["message_read"], mailbox_id: box.id }),
    );
    const s = await streamSocket(server.url, { authorization: `Bearer ${secret}` });
    expect(await s.subscribe()).toMatchObject({ type: "subscribed", inbox_ids: [box.id] });
    await db.transaction(async (tx) => deleteMailbox(tx, { actor: await ownerActor(tx, owner, seeded.project.id, "dashboard"), inboxId: box.id }));
    await expect.poll(() => s.closed(), { timeout: 3000, interval: 50 }).toMatchObject({ code: 1008, reason: "The key's mailbox was deleted." });
  });
});

/** The server's side of the stream sockets (the API server runs in this process). */
const serverSockets = () => [...((globalThis as { __brynthWss?: { clients: Set<WebSocket> } }).__brynthWss?.clients ?? [])];

describe("binary frames from a client that does not read", () => {
  it("are bounded like every other frame: the socket is closed once its backlog passes the bound", async () => {
    const { secret } = await seedProject({ name: "Binary backlog" });
    const s = await streamSocket(server.url, { authorization: `Bearer ${secret}` });
    (s.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const empty = Buffer.alloc(0);
    for (let i = 0; i < 200_000; i++) s.ws.send(empty, { binary: true });
    // Before: each binary frame's answer skipped the backlog check, and the server held 56 MB for this one socket.
    await expect
      .poll(
        () => {
          const [ws] = serverSockets();
          return !ws || ws.readyState !== ws.OPEN || ws.bufferedAmount > 2 * MAX_BACKLOG_BYTES ? "settled" : "pending";
        },
        { timeout: 25_000, interval: 50 },
      )
      .toBe("settled");
    const [ws] = serverSockets();
    expect(ws && ws.readyState === ws.OPEN ? ws.bufferedAmount : 0).toBeLessThanOrEqual(MAX_BACKLOG_BYTES);
  }, 30_000);
});
