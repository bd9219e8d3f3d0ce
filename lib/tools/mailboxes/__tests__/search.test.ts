import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { searchMessages } from "@/lib/tools/mailboxes/search-messages";
import { searchThreads } from "@/lib/tools/mailboxes/search-threads";
import { actorVia, call, otherKey, refusal, type Seeded } from "./mail-actors";
import { insertThread } from "./read-fixtures";

/**
 * search_messages and search_threads: websearch syntax over the stored tsvector, newest first, spam and trash left
 * out, paging without repeats. Runs unchanged on PGlite and Postgres (DATABASE_URL).
 */
let seeded: Seeded;
let inbox: string;
let other: string;
const t: Record<string, string> = {};
const m: Record<string, string> = {};

const at = (minute: number) => `2026-11-22T07:${String(minute).padStart(2, "0")}:00.000Z`;

beforeAll(async () => {
  seeded = await seedProject({ name: "Search" });
  inbox = (await seedMailbox(seeded.project.id)).id;
  other = (await seedMailbox(seeded.project.id)).id;
  const thread = async (name: string, messages: Parameters<typeof insertThread>[2], mailboxId = inbox) => {
    const made = await insertThread(seeded.project.id, mailboxId, messages);
    t[name] = made.threadId;
    made.messageIds.forEach((id, i) => {
      m[`${name}${i}`] = id;
    });
  };
  await thread("march", [
    { at: at(1), subject: "March", text: "The invoice for march is attached", from: "ann@example.org" },
    { at: at(5), subject: "Re: March", text: "A quokka replied", from: "bob@example.org" },
  ]);
  await thread("overdue", [{ at: at(3), subject: "Overdue", text: "This invoice is overdue" }]);
  await thread("spam", [{ at: at(4), subject: "Deal", text: "invoice cheap watches", category: "spam", labels: ["received", "spam"] }]);
  await thread("trash", [{ at: at(6), subject: "Old", text: "an old invoice", labels: ["received", "trash"] }]);
  await thread("reset", [{ at: at(2), subject: "Account", text: "Your password reset was requested" }]);
  await thread("narwhal", [{ at: at(7), subject: "Sighting", text: "A narwhal was seen" }]);
  await thread("elsewhere", [{ at: at(8), subject: "Elsewhere", text: "invoice in another inbox" }], other);
});

const mcp = () => actorVia(seeded, "mcp");
const rest = () => actorVia(seeded, "rest");
const messageIds = (out: Record<string, any>) => (out.messages as { message_id: string }[]).map((x) => x.message_id);
const threadIds = (out: Record<string, any>) => (out.threads as { thread_id: string }[]).map((x) => x.thread_id);
const messages = async (q: string, args: Record<string, unknown> = {}) => messageIds(await call(searchMessages, mcp(), { inboxId: inbox, q, ...args }));
const threads = async (q: string, args: Record<string, unknown> = {}) => threadIds(await call(searchThreads, mcp(), { inboxId: inbox, q, ...args }));

describe("search_messages", () => {
  it("matches words newest first and leaves spam and trash out", async () => {
    expect(await messages("invoice")).toEqual([m.overdue0, m.march0]);
    expect(await messages("INVOICE march")).toEqual([m.march0]);
    const out = await call(searchMessages, mcp(), { inboxId: inbox, q: "narwhal", limit: 1 });
    expect(out).toMatchObject({ count: 1, limit: 1, next_page_token: null, messages: [{ message_id: m.narwhal0, preview: "A narwhal was seen" }] });
    expect(out.messages[0]).not.toHaveProperty("text");
  });

  it("websearch syntax: or, phrases, exclusion; subject and participants are searched too", async () => {
    expect(await messages("narwhal or quokka")).toEqual([m.narwhal0, m.march1]);
    expect(await messages('"password reset"')).toEqual([m.reset0]);
    expect(await messages("reset password")).toEqual([m.reset0]);
    expect(await messages('"reset password"')).toEqual([]);
    expect(await messages("invoice -overdue")).toEqual([m.march0]);
    expect(await messages("sighting")).toEqual([m.narwhal0]);
    expect(await messages("bob@example.org")).toEqual([m.march1]);
  });

  it("odd syntax is accepted and matches nothing rather than failing", async () => {
    for (const q of ["&&|!(", "!", "'", '"', ":*", "-", "or", "a & b | (c"]) expect(await messages(q)).toEqual([]);
  });

  it("reads a run of dashes (a pasted signature rule, spaced or not, or among ! & | ( ) <) as a separator, one dash as a NOT", async () => {
    // Before: 33 or more nested past PostgreSQL's tsquery stack, and the search failed with an internal error; then
    // a run read as one NOT turned `--overdue` into "everything but overdue" (found by helper-119).
    const rule = "-".repeat(40);
    expect(await messages(rule)).toEqual([]);
    expect(await messages(`invoice ${rule}`)).toEqual([m.overdue0, m.march0]);
    expect(await messages(`invoice ${"- ".repeat(40)}overdue`)).toEqual([m.overdue0]);
    expect(await messages(`invoice ${"-!".repeat(40)}overdue`)).toEqual([m.overdue0]);
    expect(await messages(`invoice ${"-| ".repeat(40)}overdue`)).toEqual([m.overdue0]);
    expect(await messages("--overdue")).toEqual([m.overdue0]);
    expect(await messages("invoice -overdue")).toEqual([m.march0]);
    expect(await threads(`invoice ${rule}overdue`)).toEqual([t.overdue]);
    expect(await threads(`invoice -(overdue)`)).toEqual([t.march]);
  });

  it("before/after and paging through every match once, in REST's casing", async () => {
    expect(await messages("invoice", { after: at(1) })).toEqual([m.overdue0]);
    expect(await messages("invoice", { before: at(3) })).toEqual([m.march0]);
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const out: Record<string, any> = await call(searchMessages, rest(), {
        inbox_id: inbox,
        q: "invoice or narwhal or quokka or password",
        limit: 2,
        ...(token ? { page_token: token } : {}),
      });
      seen.push(...messageIds(out));
      token = out.next_page_token;
    } while (token);
    expect(seen).toEqual([m.narwhal0, m.march1, m.overdue0, m.reset0, m.march0]);
  });

  it("q must be 1 to 256 characters; a token of another query is refused; unknown arguments too", async () => {
    for (const q of ["", "x".repeat(257)]) {
      const e = await refusal(searchMessages, mcp(), { inboxId: inbox, q });
      expect([e.code, e.details]).toEqual(["validation_error", [{ field: "q", message: expect.any(String) }]]);
    }
    expect((await refusal(searchMessages, mcp(), { inboxId: inbox })).details).toEqual([{ field: "q", message: expect.any(String) }]);
    expect(await messages("x".repeat(256))).toEqual([]);
    const token = (await call(searchMessages, mcp(), { inboxId: inbox, q: "invoice", limit: 1 })).next_page_token;
    const e = await refusal(searchMessages, rest(), { inbox_id: inbox, q: "narwhal", page_token: token });
    expect(e.details).toEqual([{ field: "page_token", message: expect.any(String) }]);
    expect((await refusal(searchMessages, mcp(), { inboxId: inbox, q: "x", ascending: true })).details).toEqual([
      { field: "ascending", message: "Unknown argument: ascending" },
    ]);
  });

  it("another inbox is NOT_FOUND for a restricted key", async () => {
    const restricted = await otherKey(seeded, ["message_read"], other);
    expect((await refusal(searchMessages, restricted.actor("mcp"), { inboxId: inbox, q: "invoice" })).code).toBe("NOT_FOUND");
    expect(messageIds(await call(searchMessages, restricted.actor("mcp"), { inboxId: other, q: "invoice" }))).toEqual([m.elsewhere0]);
  });
});

describe("search_threads", () => {
  it("threads by their newest match, each once", async () => {
    expect(await threads("invoice")).toEqual([t.overdue, t.march]);
    expect(await threads("invoice or quokka")).toEqual([t.march, t.overdue]);
    const out = await call(searchThreads, mcp(), { inboxId: inbox, q: "quokka" });
    expect(out.threads).toEqual([expect.objectContaining({ thread_id: t.march, message_count: 2, subject: "March" })]);
  });

  it("pages without repeating a thread that matched again on an older message", async () => {
    const q = "invoice or quokka or narwhal or password";
    for (const limit of [1, 2]) {
      const seen: string[] = [];
      let token: string | null = null;
      do {
        const out: Record<string, any> = await call(searchThreads, mcp(), { inboxId: inbox, q, limit, ...(token ? { pageToken: token } : {}) });
        seen.push(...threadIds(out));
        token = out.next_page_token;
      } while (token);
      expect(seen).toEqual([t.narwhal, t.march, t.overdue, t.reset]);
    }
  });

  it("pages of many threads matching on up to a dozen messages, crowded on a few instants: each once, in order", async () => {
    const crowded = (await seedMailbox(seeded.project.id)).id;
    // 60 threads of 1-12 matching messages on only 6 instants: ties everywhere, so the thread id orders threads
    // whose newest match is the same instant, and a page's window of candidates often ends inside such a tie.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const newest = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      const times = Array.from({ length: 1 + next(12) }, () => next(6)).sort((x, y) => y - x);
      const messages = times.map((k) => ({ at: new Date(Date.UTC(2026, 10, 1, 12, k)).toISOString(), subject: "Zebrafish report" }));
      newest.set((await insertThread(seeded.project.id, crowded, messages)).threadId, times[0]);
    }
    const expected = [...newest].sort(([a, x], [b, y]) => y - x || (a < b ? 1 : -1)).map(([id]) => id);
    for (const limit of [1, 2, 3, 4, 5, 10]) {
      const seen: string[] = [];
      let token: string | null = null;
      do {
        const out: Record<string, any> = await call(searchThreads, mcp(), { inboxId: crowded, q: "zebrafish", limit, ...(token ? { pageToken: token } : {}) });
        seen.push(...threadIds(out));
        token = out.next_page_token;
      } while (token);
      expect([limit, seen]).toEqual([limit, expected]);
    }
  });

  // Found by helper-99: the token bound tool, project and filter only, so a key held to one inbox started at the
  // place of an unrestricted key's walk, skipping its own newer mail.
  it("refuses a page token an unrestricted key was given to a key held to one inbox", async () => {
    const first = await call(searchThreads, mcp(), { q: "invoice", limit: 1 });
    expect(first.next_page_token).toEqual(expect.any(String));
    const restricted = await otherKey(seeded, ["message_read"], other);
    const refused = await refusal(searchThreads, restricted.actor("mcp"), { q: "invoice", limit: 1, pageToken: first.next_page_token });
    expect(refused.details).toEqual([{ field: "pageToken", message: expect.stringContaining("key restriction") }]);
    // The unrestricted key's own walk goes on as before.
    expect(threadIds(await call(searchThreads, mcp(), { q: "invoice", limit: 1, pageToken: first.next_page_token }))).toHaveLength(1);
  });

  it("without inboxId: every inbox the key may read; before/after; odd syntax; q bounds", async () => {
    expect(threadIds(await call(searchThreads, mcp(), { q: "invoice" }))).toEqual([t.elsewhere, t.overdue, t.march]);
    const restricted = await otherKey(seeded, ["message_read"], other);
    expect(threadIds(await call(searchThreads, restricted.actor("mcp"), { q: "invoice" }))).toEqual([t.elsewhere]);
    expect((await refusal(searchThreads, restricted.actor("mcp"), { inboxId: inbox, q: "invoice" })).code).toBe("NOT_FOUND");
    expect(await threads("invoice or quokka", { before: at(5) })).toEqual([t.overdue, t.march]);
    expect(await threads("invoice", { after: at(2) })).toEqual([t.overdue]);
    expect(await threads("&&|!(")).toEqual([]);
    for (const q of ["", "x".repeat(257)]) expect((await refusal(searchThreads, rest(), { q })).details).toEqual([{ field: "q", message: expect.any(String) }]);
  });

  // Found by helper-99: one conversation of 1,001 matches filled each page's 1,000-match window, so the walk ended
  // (next_page_token null) before the older conversation that matched once.
  it("walks on past a conversation of more than 1,000 matches to the older ones", { timeout: 120_000 }, async () => {
    const box = (await seedMailbox(seeded.project.id)).id;
    const older = (await insertThread(seeded.project.id, box, [{ at: "2026-01-01T00:00:00.000Z", subject: "Zebra report", text: "zebra" }])).threadId;
    const many = Array.from({ length: 1001 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString(),
      subject: "Zebra alerts",
      text: `zebra ${i}`,
    }));
    const big = (await insertThread(seeded.project.id, box, many)).threadId;
    for (const limit of [1, 10]) {
      const seen: string[] = [];
      let token: string | null = null;
      for (let pages = 0; pages < 5; pages++) {
        const out = await call(searchThreads, mcp(), { inboxId: box, q: "zebra", limit, ...(token ? { pageToken: token } : {}) });
        seen.push(...threadIds(out));
        token = out.next_page_token;
        if (!token) break;
      }
      expect(token).toBeNull();
      expect(seen).toEqual([big, older]);
    }
  });
});

describe("over HTTP", () => {
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

  it("search_threads over the SDK client and search_messages over REST", async () => {
    const got = await client.callTool({ name: "search_threads", arguments: { inboxId: inbox, q: "&&|!( invoice" } });
    expect(got.isError).toBeFalsy();
    expect(threadIds(got.structuredContent as Record<string, any>)).toEqual([t.overdue, t.march]);
    const res = await fetch(`${server.url}/api/v1/inboxes/${inbox}/messages/search?q=${encodeURIComponent('"password reset"')}`, {
      headers: { authorization: `Bearer ${seeded.secret}` },
    });
    expect(res.status).toBe(200);
    expect(messageIds(await res.json())).toEqual([m.reset0]);
    const threadsRes = await fetch(`${server.url}/api/v1/threads/search?q=narwhal&inbox_id=${inbox}`, {
      headers: { authorization: `Bearer ${seeded.secret}` },
    });
    expect(threadIds(await threadsRes.json())).toEqual([t.narwhal]);
  });
});
