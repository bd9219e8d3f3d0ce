import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { closeAllSockets, streamSocket } from "@/lib/http/stream/stream-test-client";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { addMailbox } from "@/lib/mail/__tests__/mail-store-helpers";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

// Concurrent writers: an event's seq is taken at insert, but it becomes visible at commit (PGlite runs one
// transaction at a time, so only PostgreSQL can commit out of seq order). The stream goes in (xid, seq) order and
// passes an event only once every older transaction has ended (statements.ts).
describe.runIf(onPostgres)("the stream under transactions that commit out of seq order", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => {
    closeAllSockets();
    await server.close();
  });

  it("holds a committed event while an older transaction is open, then delivers both once, in order, and a resume from the last loses nothing", async () => {
    const seeded = await seedProject({ name: "Commit order" });
    const box = await addMailbox(seeded.project.id, "order");
    const s = await streamSocket(server.url, { authorization: `Bearer ${seeded.secret}` });
    await s.subscribe({ inbox_ids: [box.id] });
    const db = await getDb();
    const emit = (tx: Parameters<typeof emitMailEvent>[0], subject: string) =>
      emitMailEvent(tx, {
        projectId: seeded.project.id,
        mailboxId: box.id,
        type: "message.received",
        messageId: null,
        threadId: null,
        summary: { from: "a@example.org", to: [box.address], subject, preview: null, labels: [] },
      });
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let inserted = () => {};
    const firstInserted = new Promise<void>((r) => (inserted = r));
    // The first takes the lower seq and holds its transaction open while the second commits.
    const slow = db.transaction(async (tx) => {
      const id = await emit(tx, "lower seq, later commit");
      inserted();
      await gate;
      return id;
    });
    await firstInserted;
    const fast = await db.transaction((tx) => emit(tx, "higher seq, first commit"));
    // Longer than any fixed wait a reader could use to let a straggler in: the committed event still waits.
    await new Promise((r) => setTimeout(r, 600));
    expect(s.events()).toEqual([]);
    release();
    const lower = await slow;
    await s.next((f) => f.type === "event" && f.event_id === fast);
    expect(s.events().map((f) => f.event_id)).toEqual([lower, fast]);
    // Had the higher one gone first, a client resuming from it would never see the lower one.
    const later = await db.transaction((tx) => emit(tx, "after"));
    const resumed = await streamSocket(server.url, { authorization: `Bearer ${seeded.secret}` });
    await resumed.subscribe({ inbox_ids: [box.id], since: lower });
    await resumed.next((f) => f.type === "event" && f.event_id === later);
    expect(resumed.events().map((f) => f.event_id)).toEqual([fast, later]);
  });
});
