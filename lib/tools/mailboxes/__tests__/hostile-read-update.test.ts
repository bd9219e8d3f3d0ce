import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { eraseMessages } from "@/lib/mail/deletion/erase-messages";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { batchMessages } from "@/lib/tools/mailboxes/batch-messages";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { getInbox } from "@/lib/tools/mailboxes/get-inbox";
import { getMessage } from "@/lib/tools/mailboxes/get-message";
import { getThread } from "@/lib/tools/mailboxes/get-thread";
import { listMessages } from "@/lib/tools/mailboxes/list-messages";
import { listThreads } from "@/lib/tools/mailboxes/list-threads";
import { searchMessages } from "@/lib/tools/mailboxes/search-messages";
import { searchThreads } from "@/lib/tools/mailboxes/search-threads";
import { updateMessage } from "@/lib/tools/mailboxes/update-message";
import { updateThread } from "@/lib/tools/mailboxes/update-thread";
import { MCP_RESULT_BYTES } from "@/lib/tools/result-budget";
import type { AnyTool } from "@/lib/tools/run-tool";
import { actorVia, call, messagesOf, receiveReply, refusal, type Seeded, threadRow } from "./mail-actors";

/**
 * The read and label tools as a hostile or careless agent uses them: concurrent label changes, dates Postgres
 * cannot hold, results the MCP budget must bound, ids with stray spaces, and misnamed fields.
 */
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

// biome-ignore lint/suspicious/noExplicitAny: tests read results of many shapes, as a caller's JSON
type Json = Record<string, any>;

let seeded: Seeded;
let mail: MailFixture;
let reply: string;

beforeAll(async () => {
  seeded = await seedProject({ name: "Hostile reads" });
  mail = await seedReceivedMail(seeded.project.id);
  reply = await receiveReply(seeded.project.id, mail.inbox, mail.message);
});

const mcp = () => actorVia(seeded, "mcp");
const rest = () => actorVia(seeded, "rest");
const labelsOf = async (threadId: string) => (await messagesOf(seeded.project.id, threadId)).map((m) => m.labels as string[]);
const starting = (prefix: string) => (labels: string[]) => labels.filter((l) => l.startsWith(prefix)).sort();
const expected = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).sort();

/** A fresh conversation of two messages in a mailbox of its own. */
async function freshThread() {
  const box = await seedMailbox(seeded.project.id);
  const fixture = await seedReceivedMail(seeded.project.id, box.id);
  const second = await receiveReply(seeded.project.id, fixture.inbox, fixture.message);
  return { ...fixture, second };
}

describe("concurrent label changes", () => {
  const N = 12;

  it("update_message calls on one message all land: no label is lost", async () => {
    const t = await freshThread();
    await Promise.all(Array.from({ length: N }, (_, i) => call(updateMessage, mcp(), { inboxId: t.inbox, messageId: t.message, addLabels: [`same-${i}`] })));
    const [first] = (await messagesOf(seeded.project.id, t.thread)).filter((m) => m.id === t.message);
    expect(starting("same-")(first.labels)).toEqual(expected("same-", N));
    expect(starting("same-")((await threadRow(seeded.project.id, t.thread)).labels)).toEqual(expected("same-", N));
  });

  it("update_message calls on different messages of one thread: the thread's label union keeps them all", async () => {
    const t = await freshThread();
    await Promise.all(
      Array.from({ length: N }, (_, i) => call(updateMessage, mcp(), { inboxId: t.inbox, messageId: i % 2 ? t.message : t.second, addLabels: [`mixed-${i}`] })),
    );
    expect(starting("mixed-")((await threadRow(seeded.project.id, t.thread)).labels)).toEqual(expected("mixed-", N));
    expect(starting("mixed-")((await labelsOf(t.thread)).flat())).toEqual(expected("mixed-", N));
  });

  it("update_thread calls, with adds and removes interleaved, leave every message and the thread as if run one by one", async () => {
    const t = await freshThread();
    await Promise.all([
      ...Array.from({ length: N }, (_, i) => call(updateThread, mcp(), { threadId: t.thread, addLabels: [`thr-${i}`] })),
      call(updateThread, rest(), { thread_id: t.thread, remove_labels: ["unread"] }),
    ]);
    for (const labels of await labelsOf(t.thread)) {
      expect(starting("thr-")(labels)).toEqual(expected("thr-", N));
      expect(labels).not.toContain("unread");
    }
    const thread = await threadRow(seeded.project.id, t.thread);
    expect(starting("thr-")(thread.labels)).toEqual(expected("thr-", N));
    expect(thread.labels).not.toContain("unread");
  });

  it.runIf(onPostgres)("update_message on a message erased while it waited is NOT_FOUND, not an internal error", async () => {
    const t = await freshThread();
    const db = await getDb();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A REST delete holds the message row; the label change finds the message, then waits for that row.
    let erased = false;
    const erasing = db.transaction(async (tx) => {
      await eraseMessages(tx, { projectId: seeded.project.id, messageIds: [t.message] });
      erased = true;
      await held;
    });
    await expect.poll(() => erased).toBe(true);
    const labelling = refusal(updateMessage, mcp(), { inboxId: t.inbox, messageId: t.message, addLabels: ["late"] });
    await expect
      .poll(async () => {
        const rows = await db.execute(
          sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query like '%mail_messages%'`,
        );
        return (rows as unknown as unknown[]).length;
      })
      .toBeGreaterThan(0);
    release();
    await erasing;
    const e = await labelling;
    expect(e.code).toBe("NOT_FOUND");
    expect(e.message).toBe(`Message ${t.message} was not found in this inbox.`);
  });
});

describe("before and after outside what Postgres can hold", () => {
  const cases: Array<[AnyTool, Record<string, unknown>]> = [
    [listThreads, {}],
    [listMessages, { inboxId: "" }],
    [searchThreads, { q: "numbers" }],
    [searchMessages, { inboxId: "", q: "numbers" }],
  ];
  // Valid ISO 8601 that is year 0 or year 10000 once in UTC.
  const dates = ["0000-06-01", "0000-12-31T23:00:00+01:00", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-14:00"];

  it.each(cases.map(([tool, args]) => [tool.name, tool, args] as const))(
    "%s: validation_error naming the field, in the caller's casing",
    async (_name, tool, args) => {
      const withInbox = (a: Record<string, unknown>) => ("inboxId" in a ? { ...a, inboxId: mail.inbox } : a);
      for (const date of dates) {
        for (const field of ["before", "after"]) {
          const viaMcp = await refusal(tool, mcp(), { ...withInbox(args), [field]: date });
          expect(viaMcp.code).toBe("validation_error");
          expect(viaMcp.details).toEqual([{ field, message: expect.stringContaining("between 0001-01-01 and 9999-12-31") }]);
          const { inboxId, ...restArgs } = withInbox(args);
          const viaRest = await refusal(tool, rest(), { ...restArgs, ...(inboxId ? { inbox_id: inboxId } : {}), [field]: date });
          expect(viaRest.details).toEqual([{ field, message: expect.any(String) }]);
        }
      }
      // The edges of the range still work.
      const ok = await call(tool, mcp(), { ...withInbox(args), after: "0001-01-01T00:00:00Z", before: "9999-12-31T23:59:59Z" });
      expect(ok.count).toBeGreaterThan(0);
    },
  );
});

describe("ids and addresses with stray whitespace", () => {
  it("are trimmed: the inbox, message and thread are found, and a list is not silently empty", async () => {
    expect((await call(getInbox, mcp(), { inboxId: `  ${mail.address.toUpperCase()} ` })).inbox_id).toBe(mail.inbox);
    expect((await call(getInbox, rest(), { inbox_id: `${mail.inbox}\n` })).inbox_id).toBe(mail.inbox);
    expect((await call(getMessage, mcp(), { inboxId: ` ${mail.inbox}`, messageId: ` ${mail.message} ` })).message_id).toBe(mail.message);
    expect((await call(getThread, mcp(), { threadId: ` ${mail.thread} ` })).thread_id).toBe(mail.thread);
    const listed = await call(listMessages, mcp(), { inboxId: ` ${mail.inbox} `, limit: 100 });
    expect(listed.messages.map((m: { message_id: string }) => m.message_id).sort()).toEqual([mail.message, reply].sort());
  });

  it("an id of blanks is a validation_error naming it, not NOT_FOUND", async () => {
    const e = await refusal(getInbox, mcp(), { inboxId: "   " });
    expect(e.code).toBe("validation_error");
    expect(e.details).toEqual([{ field: "inboxId", message: expect.any(String) }]);
    expect((await refusal(getMessage, rest(), { inbox_id: mail.inbox, message_id: " \t " })).details).toEqual([
      { field: "message_id", message: expect.any(String) },
    ]);
  });
});

describe("batch with labels on an action that takes none", () => {
  it("names the field the caller sent", async () => {
    const onlyRemove = await refusal(batchMessages, rest(), { inbox_id: mail.inbox, action: "trash", ids: [mail.message], remove_labels: ["unread"] });
    expect(onlyRemove.details).toEqual([{ field: "remove_labels", message: "labels are only taken with action label, not trash" }]);
    const onlyAdd = await refusal(batchMessages, mcp(), { inboxId: mail.inbox, action: "get", ids: [mail.message], addLabels: ["x"] });
    expect(onlyAdd.details).toEqual([{ field: "addLabels", message: "labels are only taken with action label, not get" }]);
  });
});

describe("the MCP result budget on inbox lists, list entries and label answers", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let client: Client;
  let heavy: Seeded;
  let labelled: { inbox: string; thread: string; message: string };
  const bytes = (text: string) => Buffer.byteLength(text, "utf8");

  beforeAll(async () => {
    heavy = await seedProject({ name: "Heavy answers" });
    const k = actorVia(heavy, "mcp");
    const meta = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`note${i}`, "a fairly long metadata value ".repeat(4)]));
    for (let i = 0; i < 40; i++) await call(createInbox, k, { displayName: `Heavy inbox ${i}`, metadata: meta });
    const box = await seedMailbox(heavy.project.id);
    for (let i = 0; i < 100; i++) {
      await call(createListEntryTool, k, { inboxId: box.id, direction: "receive", type: "block", entry: `spam${i}.example`, reason: "r".repeat(500) });
    }
    const fixture = await seedReceivedMail(heavy.project.id, box.id);
    // 600 labels of 60 characters: 20 a call, as an agent may add them.
    for (let c = 0; c < 30; c++) {
      const addLabels = Array.from({ length: 20 }, (_, i) => `tag-${String(c).padStart(2, "0")}-${String(i).padStart(2, "0")}-${"x".repeat(48)}`);
      await call(updateMessage, k, { inboxId: box.id, messageId: fixture.message, addLabels });
    }
    labelled = { inbox: box.id, thread: fixture.thread, message: fixture.message };
    server = await startApiServer();
    client = (await connectMcp(server.url, heavy.secret)).client;
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  /** An MCP call through the SDK client (which validates structuredContent against the published outputSchema). */
  async function viaMcp(name: string, args: Record<string, unknown>) {
    const res = await client.callTool({ name, arguments: args });
    expect(res.isError).toBeFalsy();
    const text = (res.content as { text: string }[])[0].text;
    expect(JSON.parse(text)).toEqual(res.structuredContent);
    return { text, out: res.structuredContent as Json };
  }
  const viaRest = async (path: string) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${heavy.secret}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  };

  it("list_inboxes and search_inboxes of 100: within 19,000 bytes, truncated, every inbox still identified; REST in full", async () => {
    const full = await viaRest("/inboxes?limit=100");
    expect(bytes(JSON.stringify(full))).toBeGreaterThan(MCP_RESULT_BYTES);
    for (const [name, args] of [
      ["list_inboxes", { limit: 100 }],
      ["search_inboxes", { q: "heavy", limit: 100 }],
    ] as const) {
      const { text, out } = await viaMcp(name, args);
      expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
      expect(out).toMatchObject({ truncated: true, fix: expect.stringContaining("GET /api/v1/inboxes") });
      const shown = out.inboxes.map((i: { inbox_id: string }) => i.inbox_id);
      expect(shown.length).toBeGreaterThanOrEqual(40);
    }
    expect((await viaMcp("list_inboxes", { limit: 100 })).out.inboxes.map((i: { inbox_id: string }) => i.inbox_id)).toEqual(
      full.inboxes.map((i: { inbox_id: string }) => i.inbox_id),
    );
    // A small page still fits whole (the newest inbox is the seeded one, without metadata; the next has it).
    const small = (await viaMcp("list_inboxes", { limit: 2 })).out;
    expect(small).not.toHaveProperty("truncated");
    expect(small.inboxes[1].metadata.note0).toContain("metadata value");
  });

  it("list_list_entries of 100 entries with long reasons: within the budget, the page token kept", async () => {
    const { text, out } = await viaMcp("list_list_entries", { inboxId: labelled.inbox, direction: "receive", type: "block", limit: 100 });
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(out).toMatchObject({ count: 100, limit: 100, truncated: true, fix: expect.stringContaining("GET /api/v1/lists/receive/block") });
    expect(out.next_page_token).toEqual(expect.any(String));
    const full = await viaRest(`/lists/receive/block?inbox_id=${labelled.inbox}&limit=100`);
    expect(full.entries.filter((e: { reason: string | null }) => e.reason?.length === 500)).toHaveLength(99);
  });

  it("update_message, update_thread and delete_thread of a message with 600 labels: ids within the budget; REST has them all", async () => {
    const m = await viaMcp("update_message", { inboxId: labelled.inbox, messageId: labelled.message, addLabels: ["one-more"] });
    expect(bytes(m.text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(m.out).toMatchObject({ message_id: labelled.message, thread_id: labelled.thread, truncated: true });
    expect(m.out.fix).toContain(`/messages/${labelled.message}`);
    for (const name of ["update_thread", "delete_thread"]) {
      const t = await viaMcp(name, { threadId: labelled.thread, ...(name === "update_thread" ? { removeLabels: ["unread"] } : {}) });
      expect(bytes(t.text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
      expect(t.out).toMatchObject({ thread_id: labelled.thread, truncated: true, fix: expect.stringContaining(`GET /api/v1/threads/${labelled.thread}`) });
    }
    const full = await viaRest(`/threads/${labelled.thread}`);
    expect(full.labels).toHaveLength(600 + ["one-more", "received", "trash"].length);
    // A message with few labels answers whole.
    const plain = await viaMcp("update_thread", { threadId: (await seedReceivedMail(heavy.project.id)).thread, addLabels: ["small"] });
    expect(plain.out).not.toHaveProperty("truncated");
    expect(plain.out.labels).toContain("small");
  });
});
