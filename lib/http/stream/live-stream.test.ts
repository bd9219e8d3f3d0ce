import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { createKey } from "@/lib/keys/create-key";
import { revokeKey } from "@/lib/keys/revoke-key";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { fakeResolver, sendTo } from "@/lib/mail/__tests__/helpers";
import { addMailbox } from "@/lib/mail/__tests__/mail-store-helpers";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { endOwnerSession } from "@/lib/owners/end-owner-session";
import { startOwnerSession } from "@/lib/owners/owner-sessions";
import { startApiServer } from "@/lib/testing/api-server";
import { seedKey, seedOwner, seedProject } from "@/lib/testing/seed";
import { closeAllSockets, type Frame, streamSocket, upgradeStatus } from "@/lib/http/stream/stream-test-client";

/** The live stream's subscribe protocol (design §1.8 E1, §2.9) with mail caused by nodemailer through the listener. */
let server: Awaited<ReturnType<typeof startApiServer>>;
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let other: Awaited<ReturnType<typeof seedProject>>;
let boxA: Awaited<ReturnType<typeof addMailbox>>;
let boxB: Awaited<ReturnType<typeof addMailbox>>;
const auth = () => ({ authorization: `Bearer ${seeded.secret}` });

beforeAll(async () => {
  server = await startApiServer();
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    resolver: fakeResolver({ "sender.example": "v=spf1 ip4:127.0.0.1 -all" }),
    onError: (err) => console.error(err),
  });
  seeded = await seedProject({ name: "Stream" });
  other = await seedProject({ name: "Elsewhere" });
  boxA = await addMailbox(seeded.project.id, "alpha");
  boxB = await addMailbox(seeded.project.id, "beta");
});
afterAll(async () => {
  closeAllSockets();
  await listener.close();
  await server.close();
});

const mail = (to: { address: string }, subject: string) =>
  sendTo(listener.port, { from: "ada@sender.example", to: to.address, subject, text: `Body of ${subject}` });
const subjectOf = (f: Frame) => (f.message as { subject: string }).subject;
const eventWith = (subject: string) => (f: Frame) => f.type === "event" && subjectOf(f) === subject;

async function restrictedKey(mailboxId: string) {
  const owner = await seedOwner();
  const db = await getDb();
  return db.transaction(async (tx) =>
    createKey(tx, { actor: await ownerActor(tx, owner, seeded.project.id, "dashboard"), name: "alpha only", scopes: ["message_read"], mailbox_id: mailboxId }),
  );
}

describe("WebSocket subscribe", () => {
  it("answers subscribed, then sends each mail event of the project in the AgentMail shape, and none of another project", async () => {
    const s = await streamSocket(server.url, auth());
    expect(await s.subscribe()).toEqual({ type: "subscribed", inbox_ids: null, event_types: null, event_changes: true });
    const foreign = await addMailbox(other.project.id, "foreign");
    await mail(foreign, "not yours");
    await mail(boxA, "hello over ws");
    const f = await s.next(eventWith("hello over ws"));
    expect(f).toMatchObject({
      type: "event",
      event_type: "message.received",
      event_id: expect.stringMatching(/^mev_/),
      inbox_id: boxA.id,
      message: { inbox_id: boxA.id, from: "ada@sender.example", to: [boxA.address], subject: "hello over ws", labels: expect.arrayContaining(["received"]) },
    });
    expect((f.message as { text: string }).text).toContain("Body of hello over ws");
    expect(s.events().map(subjectOf)).not.toContain("not yours");
    // Over the stream's 32 KB cap the bodies are left out, as AgentMail does with large events.
    await sendTo(listener.port, { from: "ada@sender.example", to: boxA.address, subject: "large one", text: "x".repeat(40_000) });
    const large = await s.next(eventWith("large one"));
    expect(large).toMatchObject({ truncated: true, message: { text: null, html: null, subject: "large one" } });
    expect(Buffer.byteLength(JSON.stringify(large))).toBeLessThan(32 * 1024);
    s.close();
  });

  it("filters by inbox_ids (an address names a mailbox too) and event_types", async () => {
    const byInbox = await streamSocket(server.url, auth());
    expect(await byInbox.subscribe({ inbox_ids: [boxB.address.toUpperCase()] })).toMatchObject({
      type: "subscribed",
      inbox_ids: [boxB.id],
      event_changes: false,
    });
    const byType = await streamSocket(server.url, auth());
    expect(await byType.subscribe({ event_types: ["message.sent"] })).toMatchObject({ type: "subscribed", event_types: ["message.sent"] });
    await mail(boxA, "for alpha");
    await mail(boxB, "for beta");
    await byInbox.next(eventWith("for beta"));
    expect(byInbox.events().map(subjectOf)).toEqual(["for beta"]);
    expect(byInbox.frames.some((f) => f.type === "event_change")).toBe(false);
    // Both mails have been read by the tail by now (the beta one after the alpha one): nothing matched message.sent.
    expect(byType.events()).toEqual([]);
    byInbox.close();
    byType.close();
  });

  it("replays from since after a reconnect, in order, with nothing lost or sent twice across the seam", async () => {
    const first = await streamSocket(server.url, auth());
    await first.subscribe({ inbox_ids: [boxA.id] });
    await mail(boxA, "r1");
    const seen = await first.next(eventWith("r1"));
    first.close();
    // While disconnected, then during the reconnect's replay.
    for (const n of [2, 3, 4]) await mail(boxA, `r${n}`);
    const again = await streamSocket(server.url, auth());
    const during = Promise.all([5, 6, 7].map((n) => mail(boxA, `r${n}`)));
    expect(await again.subscribe({ inbox_ids: [boxA.id], since: seen.event_id })).toMatchObject({ type: "subscribed" });
    await during;
    await mail(boxA, "r8");
    await again.next(eventWith("r8"));
    const subjects = again.events().map(subjectOf);
    expect([...subjects].sort()).toEqual(["r2", "r3", "r4", "r5", "r6", "r7", "r8"]);
    expect(subjects.slice(0, 3)).toEqual(["r2", "r3", "r4"]);
    expect(new Set(again.events().map((f) => f.event_id)).size).toBe(7);
    // An ISO time works as well: everything after it.
    const byTime = await streamSocket(server.url, auth());
    await byTime.subscribe({ inbox_ids: [boxA.id], since: new Date(Date.now() - 3_600_000).toISOString() });
    await byTime.next(eventWith("r8"));
    expect(
      byTime
        .events()
        .map(subjectOf)
        .filter((s) => s.startsWith("r")),
    ).toHaveLength(8);
    again.close();
    byTime.close();
  });

  it("replays nothing of a mailbox deleted since, on a subscription without inbox_ids", async () => {
    const doomed = await addMailbox(seeded.project.id, "doomed");
    const start = new Date(Date.now() - 1000).toISOString();
    const watching = await streamSocket(server.url, auth());
    await watching.subscribe({});
    await mail(doomed, "kept-secret");
    await mail(boxA, "before-delete");
    // Both stored (the listener answers 250 before it stores): the deletion comes after them.
    await watching.next(eventWith("kept-secret"));
    await watching.next(eventWith("before-delete"));
    watching.close();
    const db = await getDb();
    await db.transaction(async (tx) =>
      deleteMailbox(tx, { actor: await ownerActor(tx, await seedOwner(), seeded.project.id, "dashboard"), inboxId: doomed.id }),
    );
    const replay = await streamSocket(server.url, auth());
    await replay.subscribe({ since: start });
    await mail(boxB, "after-delete");
    await replay.next(eventWith("after-delete"));
    const subjects = replay.events().map(subjectOf);
    expect(subjects).toContain("before-delete");
    // Before: the deleted mailbox's message was replayed, body and all, though no tool or screen shows it any more.
    expect(subjects).not.toContain("kept-secret");
    expect(replay.events().filter((f) => (f.message as { inbox_id: string }).inbox_id === doomed.id)).toEqual([]);
    replay.close();
  });

  it("keeps a restricted key to its mailbox: another inbox is NOT_FOUND, no filter is clipped to its own", async () => {
    const { secret } = await restrictedKey(boxA.id);
    const s = await streamSocket(server.url, { authorization: `Bearer ${secret}` });
    const refused = await s.subscribe({ inbox_ids: [boxB.id] });
    expect(refused).toMatchObject({ type: "error", code: "NOT_FOUND" });
    expect(await s.subscribe({ inbox_ids: [boxB.address] })).toMatchObject({
      type: "error",
      code: "NOT_FOUND",
      message: String(refused.message).replace(boxB.id, boxB.address),
    });
    expect(await s.subscribe()).toEqual({ type: "subscribed", inbox_ids: [boxA.id], event_types: null, event_changes: false });
    await mail(boxB, "beta, hidden");
    await mail(boxA, "alpha, shown");
    await s.next(eventWith("alpha, shown"));
    expect(s.events().map(subjectOf)).toEqual(["alpha, shown"]);
    s.close();
  });

  it("answers every bad frame with an error frame naming the problem and keeps the socket open", async () => {
    const s = await streamSocket(server.url, auth());
    const answer = async (frame: string | Buffer) => {
      const from = s.frames.length;
      s.ws.send(frame);
      return s.next((f) => f.type === "error", from);
    };
    const cases: [string, string, string][] = [
      ["{not json", "validation_error", "not JSON"],
      ['{"type":"hello"}', "validation_error", 'type: unknown frame type "hello"'],
      ["[1,2]", "validation_error", "type: is required"],
      ['{"type":"subscribe","event_types":["message.recieved"]}', "validation_error", "event_types.0: is not a mail event type"],
      ['{"type":"subscribe","event_types":[]}', "validation_error", "event_types"],
      ['{"type":"subscribe","inboxIds":["x"]}', "validation_error", "inboxIds"],
      ['{"type":"subscribe","inbox_ids":"mbx_1"}', "validation_error", "inbox_ids"],
      ['{"type":"subscribe","since":"yesterday"}', "validation_error", "since: is neither an event id"],
      [`{"type":"subscribe","since":"${new Date(Date.now() - 8 * 86_400_000).toISOString()}"}`, "validation_error", "since: is more than 7 days ago"],
      ['{"type":"subscribe","since":"mev_unknown"}', "validation_error", "since: no event mev_unknown"],
      ['{"type":"subscribe","inbox_ids":["mbx_nope"]}', "NOT_FOUND", "mbx_nope"],
      ['{"type":"subscribe","mail_events":false,"event_types":["message.sent"]}', "validation_error", "mail_events"],
    ];
    for (const [frame, code, says] of cases) {
      const f = await answer(frame);
      expect([frame, f.code]).toEqual([frame, code]);
      expect(f.message).toContain(says);
      expect(typeof f.fix).toBe("string");
    }
    expect(await answer(Buffer.from([1, 2, 3]))).toMatchObject({ code: "validation_error", message: expect.stringContaining("binary") });
    expect(s.closed()).toBeNull();
    const from = s.frames.length;
    s.send({ type: "ping" });
    expect(await s.next((f) => f.type === "pong", from)).toEqual({ type: "pong" });
    expect(await s.subscribe({ inbox_ids: [boxA.id] })).toMatchObject({ type: "subscribed" });
    s.close();
  });

  it("refuses a key in the query string with 401, even beside a valid header, on both transports", async () => {
    for (const name of ["api_key", "access_token", "token"]) {
      const res = await fetch(`${server.url}/api/v1/stream?${name}=${seeded.secret}`, { headers: auth() });
      expect([name, res.status]).toEqual([name, 401]);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("unauthorized");
      expect(body.error.message).toContain(name);
      expect(await upgradeStatus(server.url, {}, `?${name}=${seeded.secret}`)).toBe(401);
      expect(await upgradeStatus(server.url, auth(), `?${name}=${seeded.secret}`)).toBe(401);
    }
    // An OAuth access token is for /mcp only, never the stream.
    expect(await upgradeStatus(server.url, { authorization: "Bearer oat_notforthestream" })).toBe(401);
  });

  it("refuses a key with neither message_read nor inbox:read, naming both, and lets one with only inbox:read follow event changes", async () => {
    const none = await seedKey(seeded.project.id, ["disk"], "disk only");
    expect(await upgradeStatus(server.url, { authorization: `Bearer ${none.secret}` })).toBe(403);
    const events = await seedKey(seeded.project.id, ["inbox:read"], "events only");
    const s = await streamSocket(server.url, { authorization: `Bearer ${events.secret}` });
    expect(await s.subscribe()).toEqual({ type: "subscribed", inbox_ids: [], event_types: [], event_changes: true });
    expect(await s.subscribe({ inbox_ids: [boxA.id] })).toMatchObject({
      type: "error",
      code: "missing_permission",
      message: expect.stringContaining("message_read"),
    });
    s.close();
  });

  it("closes a socket that stops reading with 1013 once its backlog passes the bound, and keeps serving the others", async () => {
    const slow = await streamSocket(server.url, auth());
    await slow.subscribe({ inbox_ids: [boxB.id] });
    const reader = await streamSocket(server.url, auth());
    await reader.subscribe({ inbox_ids: [boxB.id] });
    await sendTo(listener.port, { from: "ada@sender.example", to: boxB.address, subject: "big frames", text: "y".repeat(14_000) });
    const big = await reader.next(eventWith("big frames"));
    const { message_id, thread_id } = big.message as { message_id: string; thread_id: string };
    // The client stops reading: what the server sends piles up in the kernel, then in the socket's own buffer.
    (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const db = await getDb();
    const summary = { from: "ada@sender.example", to: [boxB.address], subject: "big frames", preview: null, labels: [] };
    // In batches the reading socket takes as they come, while the paused one falls behind by 18 MB.
    for (let batch = 1; batch <= 15; batch++) {
      await db.transaction(async (tx) => {
        for (let i = 0; i < 40; i++) {
          await emitMailEvent(tx, {
            projectId: seeded.project.id,
            mailboxId: boxB.id,
            type: "message.received",
            messageId: message_id,
            threadId: thread_id,
            summary,
          });
        }
      });
      await reader.next(() => reader.events().length >= 1 + batch * 40);
    }
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await new Promise<void>((resolve) => slow.ws.once("close", () => resolve()));
    expect(slow.closed()).toMatchObject({ code: 1013 });
    expect(slow.events().length).toBeLessThan(601);
    expect(reader.closed()).toBeNull();
    reader.close();
  }, 60_000);

  it("closes the sockets of a key the moment it is revoked (1008), and only those", async () => {
    const doomed = await seedKey(seeded.project.id, ["message_read"], "to be revoked");
    const s = await streamSocket(server.url, { authorization: `Bearer ${doomed.secret}` });
    await s.subscribe({ inbox_ids: [boxA.id] });
    const bystander = await streamSocket(server.url, auth());
    await bystander.subscribe({ inbox_ids: [boxA.id] });
    const owner = await seedOwner();
    const db = await getDb();
    await db.transaction(async (tx) => revokeKey(tx, { actor: await ownerActor(tx, owner, seeded.project.id, "dashboard"), keyId: doomed.key.id }));
    await new Promise<void>((resolve) => (s.closed() ? resolve() : s.ws.once("close", () => resolve())));
    expect(s.closed()).toMatchObject({ code: 1008 });
    await mail(boxA, "after revocation");
    await bystander.next(eventWith("after revocation"));
    expect(s.events().map(subjectOf)).not.toContain("after revocation");
    bystander.close();
  });

  it("serves the owner's dashboard cookie, for the project it names", async () => {
    const owner = await seedOwner();
    const session = await startOwnerSession(await getDb(), { ownerId: owner.id });
    const cookie = `next-auth.session-token=${await encode({ token: { sid: session.id }, secret: nextAuthSecret() })}; brynth_project=${seeded.project.id}`;
    const s = await streamSocket(server.url, { cookie });
    expect(await s.subscribe({ inbox_ids: [boxB.id] })).toMatchObject({ type: "subscribed", inbox_ids: [boxB.id] });
    await mail(boxB, "owner sees");
    await s.next(eventWith("owner sees"));
    s.close();
    expect(await upgradeStatus(server.url, { cookie: "next-auth.session-token=forged" })).toBe(401);
  });

  it("closes the owner's sockets and approvals stream (1008) when their dashboard session ends, and only theirs", async () => {
    const owner = await seedOwner();
    const db = await getDb();
    const cookieOf = async (sid: string) =>
      `next-auth.session-token=${await encode({ token: { sid }, secret: nextAuthSecret() })}; brynth_project=${seeded.project.id}`;
    const [ending, staying] = [await startOwnerSession(db, { ownerId: owner.id }), await startOwnerSession(db, { ownerId: owner.id })];
    const s = await streamSocket(server.url, { cookie: await cookieOf(ending.id) });
    await s.subscribe({ inbox_ids: [boxB.id] });
    const bystander = await streamSocket(server.url, { cookie: await cookieOf(staying.id) });
    await bystander.subscribe({ inbox_ids: [boxB.id] });
    const approvals = await fetch(`${server.url}/api/v1/approvals/stream`, { headers: { cookie: await cookieOf(ending.id) } });
    expect(approvals.status).toBe(200);
    const approvalsEnd = approvals.text();

    // Ended from Settings (the other session), as a stolen cookie's session would be.
    await db.transaction(async (tx) => endOwnerSession(tx, { actor: await ownerActor(tx, owner, seeded.project.id, "dashboard"), sessionId: ending.id }));
    await new Promise<void>((resolve) => (s.closed() ? resolve() : s.ws.once("close", () => resolve())));
    expect(s.closed()).toMatchObject({ code: 1008, reason: "The session ended." });
    // The SSE response ends (its text resolves only then).
    expect(await approvalsEnd).toContain(": stream open");
    await mail(boxB, "after sign-out");
    await bystander.next(eventWith("after sign-out"));
    expect(s.events().map(subjectOf)).not.toContain("after sign-out");
    bystander.close();
  });
});

/** SSE messages of a response as they arrive: `event`, `id` and parsed `data`. */
function sse(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const messages: { event: string; id?: string; data: Frame }[] = [];
  let buffer = "";
  let wake = () => {};
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) messages.push({ event, id: /^id: (.*)$/m.exec(block)?.[1], data: JSON.parse(data) });
        wake();
      }
    }
  })();
  return {
    messages,
    async until(match: (m: (typeof messages)[number]) => boolean) {
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        await new Promise<void>((r) => (wake = r));
      }
    },
    stop: () => reader.cancel().catch(() => {}),
  };
}

describe("SSE", () => {
  it("takes the subscription in the query, sends frames as SSE messages with the event id, and resumes from Last-Event-ID", async () => {
    const url = `${server.url}/api/v1/stream?inbox_ids=${boxA.id}&event_types=message.received,message.sent`;
    const res = await fetch(url, { headers: auth() });
    expect(res.status).toBe(200);
    const first = sse(res);
    expect((await first.until((m) => m.event === "subscribed")).data).toMatchObject({
      inbox_ids: [boxA.id],
      event_types: ["message.received", "message.sent"],
    });
    await mail(boxB, "sse beta");
    await mail(boxA, "sse one");
    const one = await first.until((m) => m.event === "event" && subjectOf(m.data) === "sse one");
    expect(one.id).toBe(one.data.event_id);
    expect(first.messages.filter((m) => m.event === "event").map((m) => subjectOf(m.data))).toEqual(["sse one"]);
    await first.stop();
    await mail(boxA, "sse two");
    // As EventSource reconnects: the same URL with the last id it saw.
    const resumed = sse(await fetch(url, { headers: { ...auth(), "last-event-id": one.id! } }));
    const two = await resumed.until((m) => m.event === "event");
    expect(subjectOf(two.data)).toBe("sse two");
    await resumed.stop();
    // A Last-Event-ID that can no longer be replayed does not end EventSource's reconnects: an error frame, then live.
    const gone = sse(await fetch(url, { headers: { ...auth(), "last-event-id": "mev_purged" } }));
    expect((await gone.until((m) => m.event === "error")).data).toMatchObject({ code: "validation_error", message: expect.stringContaining("mev_purged") });
    await mail(boxA, "sse three");
    expect(subjectOf((await gone.until((m) => m.event === "event")).data)).toBe("sse three");
    await gone.stop();
    // A URL with `since` resumes from Last-Event-ID too: before, `since` won and every reconnect replayed from it.
    const fromSince = `${url}&since=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`;
    const again = sse(await fetch(fromSince, { headers: { ...auth(), "last-event-id": two.id! } }));
    await again.until((m) => m.event === "subscribed");
    await mail(boxA, "sse four");
    await again.until((m) => m.event === "event" && subjectOf(m.data) === "sse four");
    expect(again.messages.filter((m) => m.event === "event").map((m) => subjectOf(m.data))).toEqual(["sse three", "sse four"]);
    await again.stop();
  });

  it("refuses a bad subscription with its status before streaming: 400 naming the field, 404 for another project's inbox", async () => {
    const bad = await fetch(`${server.url}/api/v1/stream?event_types=message.recieved`, { headers: auth() });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("event_types.0");
    const foreign = await addMailbox(other.project.id, "foreign-sse");
    const missing = await fetch(`${server.url}/api/v1/stream?inbox_ids=${foreign.id}`, { headers: auth() });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    const old = await fetch(`${server.url}/api/v1/stream?since=2020-01-01T00:00:00Z`, { headers: auth() });
    expect(old.status).toBe(400);
    const flag = await fetch(`${server.url}/api/v1/stream?event_changes=maybe`, { headers: auth() });
    expect(((await flag.json()) as { error: { message: string } }).error.message).toContain("event_changes");
  });
});
