import { eq } from "drizzle-orm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { getThread } from "@/lib/tools/mailboxes/get-thread";
import { listThreads } from "@/lib/tools/mailboxes/list-threads";
import { actorVia, call, otherKey, refusal, type Seeded } from "./mail-actors";
import { insertThread } from "./read-fixtures";

/** list_threads and get_thread through runTool (both casings) and over HTTP with the MCP SDK client. */
let seeded: Seeded;
let inbox: string;
let address: string;
let other: string;
const t: Record<string, string> = {};

const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, "0")}:00.000Z`;

beforeAll(async () => {
  seeded = await seedProject({ name: "Threads read" });
  const box = await seedMailbox(seeded.project.id);
  inbox = box.id;
  address = box.address;
  other = (await seedMailbox(seeded.project.id)).id;
  const add = async (name: string, messages: Parameters<typeof insertThread>[2], mailboxId = inbox) => {
    t[name] = (await insertThread(seeded.project.id, mailboxId, messages)).threadId;
  };
  await add("plain", [{ at: at(1), subject: "Invoice 100% paid", from: "Ann@Example.org", to: ["ops@corp.test"], labels: ["received", "billing"] }]);
  await add("mixed", [
    { at: at(2), subject: "Lunch", from: "bob@example.org", to: ["team@corp.test"], labels: ["received", "unread"] },
    { at: at(9), subject: "Re: Lunch", from: "spammer@bad.test", category: "spam", labels: ["received", "spam"] },
  ]);
  await add("spam", [{ at: at(3), subject: "Cheap watches", from: "x@bad.test", category: "spam", labels: ["received", "spam"] }]);
  await add("blocked", [{ at: at(4), subject: "Blocked one", from: "y@bad.test", category: "blocked", labels: ["received", "blocked"] }]);
  await add("unauth", [{ at: at(5), subject: "Your bank", from: "z@bank.test", category: "unauthenticated", labels: ["received", "unauthenticated"] }]);
  await add("trash", [{ at: at(6), subject: "Old news", from: "ann@example.org", labels: ["received", "trash"] }]);
  await add("wild", [
    { at: at(7), subject: "a_b report", from: "carol@example.org", to: ["ops@corp.test", "cfo@corp.test"], labels: ["received", "billing", "unread"] },
  ]);
  await add("elsewhere", [{ at: at(8), subject: "Other inbox", from: "dan@example.org" }], other);
  await add(
    "long",
    Array.from({ length: 7 }, (_, i) => ({
      at: `2026-11-19T09:00:0${i}.000Z`,
      subject: "Long talk",
      from: i % 2 ? "ann@example.org" : "bob@example.org",
      text: `part ${i}`,
    })),
  );
});

const mcp = () => actorVia(seeded, "mcp");
const rest = () => actorVia(seeded, "rest");
const ids = (out: Record<string, any>) => (out.threads as { thread_id: string }[]).map((x) => x.thread_id);
const list = async (args: Record<string, unknown>) => ids(await call(listThreads, mcp(), { inboxId: inbox, limit: 100, ...args }));

describe("list_threads", () => {
  it("latest activity first by the visible messages; spam, blocked, unauthenticated and trash threads hidden by default", async () => {
    // `mixed` sorts by its visible message (minute 2), not by the spam reply at minute 9.
    expect(await list({})).toEqual([t.wild, t.mixed, t.plain, t.long]);
    const out = await call(listThreads, mcp(), { inboxId: inbox, limit: 1 });
    expect(out).toMatchObject({ count: 1, limit: 1, next_page_token: expect.any(String) });
    expect(out.threads[0]).toEqual({
      thread_id: t.wild,
      inbox_id: inbox,
      labels: ["billing", "received", "unread"],
      timestamp: at(7),
      subject: "a_b report",
      preview: "Hello there",
      senders: ["carol@example.org"],
      recipients: ["ops@corp.test", "cfo@corp.test"],
      message_count: 1,
      size: expect.any(Number),
      last_message_id: expect.stringMatching(/^msg_/),
      created_at: at(7),
      updated_at: at(7),
    });
  });

  it("each include flag adds its kind, sorted by the last message", async () => {
    expect(await list({ includeSpam: true })).toEqual([t.mixed, t.wild, t.spam, t.plain, t.long]);
    expect(await list({ includeBlocked: true })).toEqual([t.mixed, t.wild, t.blocked, t.plain, t.long]);
    expect(await list({ includeUnauthenticated: true })).toEqual([t.mixed, t.wild, t.unauth, t.plain, t.long]);
    expect(await list({ includeTrash: true })).toEqual([t.mixed, t.wild, t.trash, t.plain, t.long]);
    expect(await list({ includeSpam: true, includeBlocked: true, includeUnauthenticated: true, includeTrash: true })).toEqual([
      t.mixed,
      t.wild,
      t.trash,
      t.unauth,
      t.blocked,
      t.spam,
      t.plain,
      t.long,
    ]);
  });

  it("labels: all must match; senders, recipients, subject: case-insensitive substrings, all must match, wildcards literal", async () => {
    expect(await list({ labels: ["billing"] })).toEqual([t.wild, t.plain]);
    expect(await list({ labels: ["BILLING", "unread"] })).toEqual([t.wild]);
    expect(await list({ senders: ["ANN@"] })).toEqual([t.plain, t.long]);
    expect(await list({ senders: ["ann@", "bob@"] })).toEqual([t.long]);
    expect(await list({ recipients: ["ops@corp", "CFO"] })).toEqual([t.wild]);
    expect(await list({ subject: ["100%"] })).toEqual([t.plain]);
    expect(await list({ subject: ["a_b"] })).toEqual([t.wild]);
    expect(await list({ subject: ["a%b"] })).toEqual([]);
    expect(await list({ subject: ["invoice", "paid"] })).toEqual([t.plain]);
    expect(await list({ subject: ["invoice", "lunch"] })).toEqual([]);
  });

  it("before and after are exclusive; ascending reverses", async () => {
    expect(await list({ after: at(1), before: at(7) })).toEqual([t.mixed]);
    expect(await list({ ascending: true })).toEqual([t.long, t.plain, t.mixed, t.wild]);
  });

  it("pages through every thread once in both casings; the token is bound to the filter", async () => {
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const out: Record<string, any> = await call(listThreads, rest(), { inbox_id: inbox, limit: 3, ...(token ? { page_token: token } : {}) });
      seen.push(...ids(out));
      token = out.next_page_token;
    } while (token);
    expect(seen).toEqual([t.wild, t.mixed, t.plain, t.long]);
    const first = await call(listThreads, mcp(), { inboxId: inbox, limit: 1 });
    expect(await list({ limit: 10, pageToken: first.next_page_token })).toEqual([t.mixed, t.plain, t.long]);
    const foreign = await refusal(listThreads, mcp(), { inboxId: other, pageToken: first.next_page_token });
    expect(foreign.details).toEqual([{ field: "pageToken", message: expect.any(String) }]);
    const foreignRest = await refusal(listThreads, rest(), { inbox_id: inbox, include_spam: true, page_token: first.next_page_token });
    expect(foreignRest.details).toEqual([{ field: "page_token", message: expect.any(String) }]);
    // An include flag spelt out as false is the same filter as without it (found by helper-99: refused before).
    expect(await list({ limit: 10, includeSpam: false, includeTrash: false, pageToken: first.next_page_token })).toEqual([t.mixed, t.plain, t.long]);
  });

  it("bad inputs: limit, pageToken, before, an unknown argument → validation_error naming the field", async () => {
    for (const limit of [0, 101, "10"]) {
      const e = await refusal(listThreads, mcp(), { limit });
      expect([e.code, e.details]).toEqual(["validation_error", [{ field: "limit", message: expect.any(String) }]]);
    }
    const garbage = await refusal(listThreads, mcp(), { pageToken: "garbage" });
    expect([garbage.code, garbage.details]).toEqual(["validation_error", [{ field: "pageToken", message: expect.any(String) }]]);
    const before = await refusal(listThreads, mcp(), { before: "yesterday" });
    expect([before.code, before.details]).toEqual(["validation_error", [{ field: "before", message: expect.stringContaining("ISO 8601") }]]);
    const bogus = await refusal(listThreads, mcp(), { inboxId: "x", bogus: 1 });
    expect([bogus.code, bogus.details]).toEqual(["validation_error", [{ field: "bogus", message: "Unknown argument: bogus" }]]);
    const label = await refusal(listThreads, rest(), { labels: [""] });
    expect(label.details).toEqual([{ field: "labels.0", message: expect.any(String) }]);
  });

  it("without inboxId: every live inbox of the project; a restricted key sees its own; another inbox is NOT_FOUND", async () => {
    const all = ids(await call(listThreads, mcp(), { limit: 100 }));
    expect(all).toEqual(expect.arrayContaining([t.elsewhere, t.wild, t.plain]));
    expect(all).not.toContain(t.spam);
    const restricted = await otherKey(seeded, ["message_read"], other);
    expect(ids(await call(listThreads, restricted.actor("mcp"), {}))).toEqual([t.elsewhere]);
    const e = await refusal(listThreads, restricted.actor("mcp"), { inboxId: inbox });
    expect(e.code).toBe("NOT_FOUND");
    const missing = await refusal(listThreads, mcp(), { inboxId: "mbx_nope" });
    expect([missing.code, missing.message]).toEqual(["NOT_FOUND", e.message.replace(inbox, "mbx_nope")]);
    // By address, any case.
    expect(ids(await call(listThreads, mcp(), { inboxId: address.toUpperCase(), limit: 1 }))).toEqual([t.wild]);
  });

  it("a deleted inbox's threads leave the project-wide list", async () => {
    const gone = await seedMailbox(seeded.project.id);
    const { threadId } = await insertThread(seeded.project.id, gone.id, [{ at: at(30), subject: "Gone" }]);
    expect(ids(await call(listThreads, mcp(), { limit: 1 }))).toEqual([threadId]);
    await (await getDb()).update(mailboxes).set({ deletedAt: new Date() }).where(eq(mailboxes.id, gone.id));
    expect(ids(await call(listThreads, mcp(), { limit: 100 }))).not.toContain(threadId);
  });
});

describe("get_thread", () => {
  it("the first page holds the newest messages, oldest → newest; the next page the older ones", async () => {
    const first = await call(getThread, mcp(), { threadId: t.long, limit: 3 });
    expect(first).toMatchObject({ thread_id: t.long, inbox_id: inbox, message_count: 7, count: 3, limit: 3, next_page_token: expect.any(String) });
    expect(first.messages.map((m: { text: string }) => m.text)).toEqual(["part 4", "part 5", "part 6"]);
    const second = await call(getThread, rest(), { thread_id: t.long, limit: 3, page_token: first.next_page_token });
    expect(second.messages.map((m: { text: string }) => m.text)).toEqual(["part 1", "part 2", "part 3"]);
    const third = await call(getThread, mcp(), { threadId: t.long, limit: 3, pageToken: second.next_page_token });
    expect(third.messages.map((m: { text: string }) => m.text)).toEqual(["part 0"]);
    expect(third.next_page_token).toBeNull();
    // A token of another thread is refused.
    const e = await refusal(getThread, mcp(), { threadId: t.plain, limit: 3, pageToken: first.next_page_token });
    expect(e.details).toEqual([{ field: "pageToken", message: expect.any(String) }]);
  });

  it("returns every message of the thread, spam included, in full", async () => {
    const out = await call(getThread, mcp(), { threadId: t.mixed, inboxId: inbox });
    expect(out.messages.map((m: { labels: string[] }) => m.labels)).toEqual([
      ["received", "unread"],
      ["received", "spam"],
    ]);
    expect(out.messages[0]).toMatchObject({ text: "Hello there", extracted_text: "Hello there", html: null, direction: "inbound" });
  });

  it("a thread of another inbox, project or outside the key's restriction is NOT_FOUND", async () => {
    expect((await refusal(getThread, mcp(), { threadId: t.elsewhere, inboxId: inbox })).code).toBe("NOT_FOUND");
    const restricted = await otherKey(seeded, ["message_read"], other);
    expect((await refusal(getThread, restricted.actor("mcp"), { threadId: t.plain })).code).toBe("NOT_FOUND");
    expect((await call(getThread, restricted.actor("mcp"), { threadId: t.elsewhere })).thread_id).toBe(t.elsewhere);
    const stranger = await seedProject({ name: "Stranger" });
    expect((await refusal(getThread, actorVia(stranger, "mcp"), { threadId: t.plain })).code).toBe("NOT_FOUND");
    expect((await refusal(getThread, mcp(), { threadId: "thr_nope" })).code).toBe("NOT_FOUND");
  });
});

describe("over HTTP with the MCP SDK client", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let client: Client;
  beforeAll(async () => {
    server = await startApiServer();
    client = (await connectMcp(server.url, seeded.secret)).client;
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("list_threads and get_thread of received mail validate against their output schemas", async () => {
    const mail = await seedReceivedMail(seeded.project.id, inbox);
    const listed = await client.callTool({ name: "list_threads", arguments: { inboxId: inbox, limit: 1 } });
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { threads: { thread_id: string }[] }).threads[0].thread_id).toBe(mail.thread);
    const got = await client.callTool({ name: "get_thread", arguments: { threadId: mail.thread } });
    expect(got.isError).toBeFalsy();
    const message = (got.structuredContent as { messages: Record<string, any>[] }).messages[0];
    expect(message).toMatchObject({
      message_id: mail.message,
      from: "Ada <ada@example.org>",
      attachments: [{ attachment_id: mail.attachment, filename: "q3.csv", content_type: "text/csv", inline: false, size: expect.any(Number) }],
    });
    const res = await fetch(`${server.url}/api/v1/threads?inbox_id=${inbox}&limit=1`, { headers: { authorization: `Bearer ${seeded.secret}` } });
    expect(((await res.json()) as { threads: { thread_id: string }[] }).threads[0].thread_id).toBe(mail.thread);
  });
});
