import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { mailEvents } from "@/lib/db/schema/mail-events";
import type { WebSocket } from "ws";
import { getDb } from "@/lib/db/client";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { closeAllSockets, streamSocket } from "@/lib/http/stream/stream-test-client";
import { MAX_BACKLOG_BYTES } from "@/lib/http/stream/stream-session";

/**
 * Live mail frames wait while a `since` replay runs, and a replay waiting on a slow client (drained(): up to
 * REPLAY_STALL_MS a stall, indefinitely for a client reading a trickle) let them pile up, uncounted by the
 * MAX_BACKLOG_BYTES bound the socket's own backlog has (found by helper-115). Here ~6 MB of live frames for a client
 * that reads nothing: the socket is closed with 1013.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  closeAllSockets();
  await server.close();
});

const serverSockets = () => [...((globalThis as { __brynthWss?: { clients: Set<WebSocket> } }).__brynthWss?.clients ?? [])];
const BIG = "x".repeat(20_000);

describe("live frames held during a replay to a client that does not read", () => {
  it("count toward the backlog bound: the socket is closed (1013) instead of holding them all", async () => {
    const { project, secret } = await seedProject({ name: "Held frames" });
    const box = await seedMailbox(project.id);
    const db = await getDb();
    // 20 MB of replay: ~20 KB frames (a deleted message's event carries its summary).
    await db.execute(sql`insert into mail_events (id, project_id, mailbox_id, type, message_id, summary)
      select 'mev_replay' || g, ${project.id}, ${box.id}, 'message.received', 'msg_gone' || g,
        jsonb_build_object('from', 'a@example.org', 'to', '[]'::jsonb, 'subject', ${BIG}::text, 'preview', null, 'labels', '[]'::jsonb)
      from generate_series(1, 1000) g`);
    // Final rows only (below every open transaction's xid): then the replay, not the live tail, hands them out.
    const finalRows = async () =>
      (
        await db
          .select({ n: count() })
          .from(mailEvents)
          .where(and(eq(mailEvents.projectId, project.id), sql`${mailEvents.xid} < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`))
      )[0].n;
    await expect.poll(finalRows, { timeout: 10_000, interval: 50 }).toBe(1000);
    const s = await streamSocket(server.url, { authorization: `Bearer ${secret}` });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    s.send({ type: "subscribe", since });
    await s.next((f) => f.type === "subscribed");
    (s.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // The replay stalls on the client's backlog.
    await expect.poll(() => serverSockets()[0]?.bufferedAmount ?? 0, { timeout: 20_000, interval: 50 }).toBeGreaterThan(MAX_BACKLOG_BYTES / 2);
    // ~6 MB of live events while it waits: all kept in `held`.
    await db.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) {
        await emitMailEvent(tx, {
          projectId: project.id,
          mailboxId: box.id,
          type: "message.received",
          messageId: `msg_live${i}`,
          threadId: null,
          summary: { from: "a@example.org", to: [], subject: BIG, preview: null, labels: [] },
        });
      }
    });
    // Correct: what the server holds for this client (backlog + held) passes MAX_BACKLOG_BYTES, so it is closed now.
    // It stayed open (until the 30 s replay stall, or for ever for a client that reads a little at a time).
    await expect
      .poll(
        () => {
          const [ws] = serverSockets();
          return !ws || ws.readyState !== ws.OPEN ? "closed" : "open";
        },
        { timeout: 12_000, interval: 100 },
      )
      .toBe("closed");
  }, 45_000);
});
