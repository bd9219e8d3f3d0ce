import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { connectMcp } from "@/lib/testing/mcp-client";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { deleteListEntryTool } from "@/lib/tools/mailboxes/delete-list-entry";
import { getListEntry } from "@/lib/tools/mailboxes/get-list-entry";
import { listListEntriesTool } from "@/lib/tools/mailboxes/list-list-entries";
import { call, projectWithKey, refusal, refusedFields, restrictedKey, snapshot } from "./inbox-test-helpers";

let p: Awaited<ReturnType<typeof projectWithKey>>;
let inbox: { inbox_id: string; email: string };
let second: { inbox_id: string; email: string };
const unique = () => `l${Math.random().toString(36).slice(2, 10)}`;
const entriesOf = (page: { entries: Array<{ entry: string }> }) => page.entries.map((e) => e.entry);

beforeAll(async () => {
  p = await projectWithKey("List tools");
  inbox = (await call(createInbox, p.mcp, { username: unique() })) as typeof inbox;
  second = (await call(createInbox, p.mcp, { username: unique() })) as typeof second;
});

describe("create_list_entry", () => {
  it("lower-cases the entry, stores its type, answers in snake_case, and ledgers the entry", async () => {
    const out = await call(createListEntryTool, p.mcp, {
      inboxId: inbox.inbox_id,
      direction: "receive",
      type: "block",
      entry: " Bob@Example.COM ",
      reason: "spam",
    });
    expect(out).toEqual({
      inbox_id: inbox.inbox_id,
      direction: "receive",
      type: "block",
      entry: "bob@example.com",
      entry_type: "email",
      reason: "spam",
      created_at: expect.any(String),
    });
    const domain = await call(createListEntryTool, p.rest, { inbox_id: inbox.email, direction: "receive", type: "block", entry: "Sub.Example.org" });
    expect(domain).toMatchObject({ entry: "sub.example.org", entry_type: "domain", reason: null, inbox_id: inbox.inbox_id });
    expect((await lastLedgerEntry(p.project.id, "create.list_entry")).subject).toMatch(/^mle_/);
    const ascii = await call(createListEntryTool, p.mcp, { inboxId: inbox.inbox_id, direction: "send", type: "allow", entry: "xn--mnchen-3ya.de" });
    expect(ascii.entry_type).toBe("domain");
  });

  it("an entry already on the list is returned as it was (first reason kept), and nothing is written", async () => {
    const first = await call(createListEntryTool, p.mcp, {
      inboxId: inbox.inbox_id,
      direction: "reply",
      type: "allow",
      entry: "partner.example",
      reason: "first",
    });
    const before = await snapshot(p.project.id);
    const again = await call(createListEntryTool, p.mcp, {
      inboxId: inbox.inbox_id,
      direction: "reply",
      type: "allow",
      entry: "PARTNER.example",
      reason: "second",
    });
    expect(again).toEqual(first);
    expect(await snapshot(p.project.id)).toEqual(before);
  });

  it("refuses bad direction, type, entry and reason with validation_error naming each field, writing nothing", async () => {
    const before = await snapshot(p.project.id);
    const base = { inboxId: inbox.inbox_id, direction: "receive", type: "block", entry: "ok.example" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ direction: "inbound" }, "direction"],
      [{ type: "deny" }, "type"],
      [{ entry: "not an address" }, "entry"],
      [{ entry: "a@b@c.example" }, "entry"],
      [{ entry: "@example.com" }, "entry"],
      [{ entry: "bob@" }, "entry"],
      [{ entry: "-bad.example" }, "entry"],
      [{ entry: "" }, "entry"],
      [{ entry: "münchen.de" }, "entry"],
      [{ entry: "bob@münchen.de" }, "entry"],
      [{ reason: "r".repeat(501) }, "reason"],
    ];
    for (const [patch, field] of cases) {
      expect(await refusedFields(createListEntryTool, p.mcp, { ...base, ...patch })).toEqual([field]);
      const { inboxId, ...rest } = { ...base, ...patch };
      expect(await refusedFields(createListEntryTool, p.rest, { ...rest, inbox_id: inboxId })).toEqual([field]);
    }
    const idn = await refusal(createListEntryTool, p.mcp, { ...base, entry: "münchen.de" });
    expect(idn.message).toContain("use the xn-- form");
    expect(await refusedFields(createListEntryTool, p.rest, { ...base, inbox_id: inbox.inbox_id })).toEqual(["inboxId"]);
    expect(await snapshot(p.project.id)).toEqual(before);
  });

  it("an unknown or deleted inbox is NOT_FOUND", async () => {
    expect((await refusal(createListEntryTool, p.mcp, { inboxId: "mbx_nope", direction: "send", type: "block", entry: "x.example" })).code).toBe("NOT_FOUND");
    expect((await refusal(listListEntriesTool, p.rest, { inbox_id: "nobody@nowhere.example", direction: "send", type: "block" })).code).toBe("NOT_FOUND");
  });
});

describe("list, get and delete", () => {
  it("lists one list only (its inbox, direction and type; global apart), newest first, in pages", async () => {
    const tag = unique();
    for (let i = 0; i < 3; i++)
      await call(createListEntryTool, p.mcp, { inboxId: second.inbox_id, direction: "send", type: "block", entry: `${tag}${i}.example` });
    await call(createListEntryTool, p.mcp, { inboxId: second.inbox_id, direction: "send", type: "allow", entry: `${tag}-other.example` });
    await call(createListEntryTool, p.mcp, { inboxId: inbox.inbox_id, direction: "send", type: "block", entry: `${tag}-inbox.example` });
    await call(createListEntryTool, p.mcp, { direction: "send", type: "block", entry: `${tag}-global.example` });
    const first = await call(listListEntriesTool, p.mcp, { inboxId: second.inbox_id, direction: "send", type: "block", limit: 2 });
    expect(entriesOf(first as never)).toEqual([`${tag}2.example`, `${tag}1.example`]);
    const next = await call(listListEntriesTool, p.rest, {
      inbox_id: second.inbox_id,
      direction: "send",
      type: "block",
      limit: 2,
      page_token: first.next_page_token,
    });
    expect(next).toMatchObject({ count: 1, next_page_token: null });
    expect(entriesOf(next as never)).toEqual([`${tag}0.example`]);
    expect(
      await refusedFields(listListEntriesTool, p.mcp, { inboxId: second.inbox_id, direction: "send", type: "allow", pageToken: first.next_page_token }),
    ).toEqual(["pageToken"]);
    const global = await call(listListEntriesTool, p.mcp, { direction: "send", type: "block", limit: 100 });
    expect(entriesOf(global as never)).toContain(`${tag}-global.example`);
    expect(entriesOf(global as never)).not.toContain(`${tag}0.example`);
    expect(global.entries.every((e: { inbox_id: string | null }) => e.inbox_id === null)).toBe(true);
  });

  it("get finds an entry of exactly that list; anything else is NOT_FOUND", async () => {
    await call(createListEntryTool, p.mcp, { inboxId: inbox.inbox_id, direction: "receive", type: "allow", entry: "friend@example.net", reason: "a friend" });
    expect(await call(getListEntry, p.rest, { inbox_id: inbox.inbox_id, direction: "receive", type: "allow", entry: "Friend@Example.NET" })).toMatchObject({
      entry: "friend@example.net",
      reason: "a friend",
    });
    for (const args of [
      { inboxId: inbox.inbox_id, direction: "receive", type: "block", entry: "friend@example.net" },
      { inboxId: inbox.inbox_id, direction: "send", type: "allow", entry: "friend@example.net" },
      { inboxId: second.inbox_id, direction: "receive", type: "allow", entry: "friend@example.net" },
      { direction: "receive", type: "allow", entry: "friend@example.net" },
      { inboxId: inbox.inbox_id, direction: "receive", type: "allow", entry: "example.net" },
    ]) {
      expect((await refusal(getListEntry, p.mcp, args)).code).toBe("NOT_FOUND");
    }
  });

  it("delete is idempotent: the entry goes, and deleting it again succeeds with the same answer", async () => {
    const args = { inboxId: inbox.inbox_id, direction: "receive", type: "block", entry: "gone@example.com" };
    await call(createListEntryTool, p.mcp, args);
    const first = await call(deleteListEntryTool, p.mcp, { ...args, entry: "GONE@example.com" });
    expect(first).toEqual({ inbox_id: inbox.inbox_id, direction: "receive", type: "block", entry: "gone@example.com", deleted: true });
    expect(await call(deleteListEntryTool, p.rest, { inbox_id: inbox.inbox_id, direction: "receive", type: "block", entry: "gone@example.com" })).toEqual(
      first,
    );
    expect((await refusal(getListEntry, p.mcp, args)).code).toBe("NOT_FOUND");
    expect(await refusedFields(deleteListEntryTool, p.mcp, { ...args, entry: "münchen.de" })).toEqual(["entry"]);
  });
});

describe("global lists and restricted keys", () => {
  it("a key restricted to one inbox gets missing_permission 'pass inboxId' without inboxId, on all four tools, writing nothing", async () => {
    const r = await restrictedKey(p.project.id, p.project.name, inbox.inbox_id);
    const before = await snapshot(p.project.id);
    const list = { direction: "receive", type: "block" };
    for (const [tool, args] of [
      [listListEntriesTool, list],
      [getListEntry, { ...list, entry: "x.example" }],
      [createListEntryTool, { ...list, entry: "x.example" }],
      [deleteListEntryTool, { ...list, entry: "x.example" }],
    ] as const) {
      const err = await refusal(tool, r.mcp, args);
      expect(err.code).toBe("missing_permission");
      expect(err.fix?.toLowerCase()).toContain("pass inboxid");
      expect((await refusal(tool, r.rest, args)).code).toBe("missing_permission");
    }
    expect(await snapshot(p.project.id)).toEqual(before);
    // Its own inbox's lists are its to use.
    expect((await call(createListEntryTool, r.mcp, { ...list, inboxId: inbox.inbox_id, entry: "own.example" })).inbox_id).toBe(inbox.inbox_id);
  });

  it("an entry added through the tool decides inbound mail: a blocked sender's message is stored as blocked", async () => {
    const target = (await call(createInbox, p.mcp, { username: unique() })) as typeof inbox;
    await call(createListEntryTool, p.mcp, { inboxId: target.inbox_id, direction: "receive", type: "block", entry: "Pest.Example" });
    const db = await getDb();
    const [box] = await db.select().from(mailboxes).where(eq(mailboxes.id, target.inbox_id));
    const raw = (from: string, id: string) =>
      Buffer.from(
        `From: ${from}\r\nTo: ${target.email}\r\nSubject: hello\r\nMessage-ID: <${id}@test>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\nHi there\r\n`,
      );
    await receiveMessage(raw("a@mail.pest.example", unique()), { mailFrom: "a@mail.pest.example", recipients: [box], remote: "local" });
    await receiveMessage(raw("b@fine.example", unique()), { mailFrom: "b@fine.example", recipients: [box], remote: "local" });
    const rows = await db
      .select({ from: mailMessages.fromAddress, category: mailMessages.category })
      .from(mailMessages)
      .where(and(eq(mailMessages.mailboxId, target.inbox_id)));
    expect(rows.sort((a, b) => String(a.from).localeCompare(String(b.from)))).toEqual([
      { from: "a@mail.pest.example", category: "blocked" },
      { from: "b@fine.example", category: "normal" },
    ]);
  });
});

describe("over HTTP", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => server.close());

  it("MCP SDK client: create → list → get → delete on an inbox's list", async () => {
    const { client } = await connectMcp(server.url, p.secret);
    try {
      const args = { inboxId: second.inbox_id, direction: "reply", type: "block", entry: "sdk.example" };
      const made = await client.callTool({ name: "create_list_entry", arguments: { ...args, reason: "over MCP" } });
      expect(made.structuredContent).toMatchObject({ entry: "sdk.example", entry_type: "domain", reason: "over MCP" });
      const listed = await client.callTool({ name: "list_list_entries", arguments: { inboxId: second.inbox_id, direction: "reply", type: "block" } });
      expect(listed.structuredContent).toMatchObject({ count: 1, entries: [{ entry: "sdk.example" }] });
      expect((await client.callTool({ name: "get_list_entry", arguments: args })).structuredContent).toEqual(made.structuredContent);
      expect((await client.callTool({ name: "delete_list_entry", arguments: args })).structuredContent).toMatchObject({ deleted: true });
      const gone = await client.callTool({ name: "get_list_entry", arguments: args });
      expect(gone.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("REST: POST and GET /lists/{direction}/{type} (inbox_id in the body or query), GET and DELETE /lists/{direction}/{type}/{entry}", async () => {
    const auth = { authorization: `Bearer ${p.secret}`, "content-type": "application/json" };
    const base = `${server.url}/api/v1/lists/receive/block`;
    const made = await fetch(base, { method: "POST", headers: auth, body: JSON.stringify({ inbox_id: second.inbox_id, entry: "rest.example" }) });
    expect(made.status).toBe(200);
    expect(await made.json()).toMatchObject({ inbox_id: second.inbox_id, entry: "rest.example", entry_type: "domain" });
    // Appendix B's form: the inbox in the query of the POST.
    const byQuery = await fetch(`${base}?inbox_id=${second.inbox_id}`, { method: "POST", headers: auth, body: JSON.stringify({ entry: "query.example" }) });
    expect(await byQuery.json()).toMatchObject({ inbox_id: second.inbox_id, entry: "query.example" });
    const twice = await fetch(`${base}?inbox_id=${second.inbox_id}`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ inbox_id: second.inbox_id, entry: "x.example" }),
    });
    expect(twice.status).toBe(400);
    expect((await twice.json()).error.message).toContain("inbox_id");
    const listed = await (await fetch(`${base}?inbox_id=${second.inbox_id}`, { headers: auth })).json();
    expect(listed.entries.map((e: { entry: string }) => e.entry)).toEqual(expect.arrayContaining(["rest.example", "query.example"]));
    const bad = await fetch(`${server.url}/api/v1/lists/inbound/block?inbox_id=${second.inbox_id}`, { headers: auth });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details).toEqual([{ field: "direction", message: expect.any(String) }]);
    const got = await fetch(`${base}/REST.example?inbox_id=${second.inbox_id}`, { headers: auth });
    expect(await got.json()).toMatchObject({ entry: "rest.example", inbox_id: second.inbox_id });
    for (let i = 0; i < 2; i++) {
      const del = await fetch(`${base}/rest.example?inbox_id=${second.inbox_id}`, { method: "DELETE", headers: auth });
      expect(del.status).toBe(200);
      expect(await del.json()).toMatchObject({ entry: "rest.example", deleted: true });
    }
  });
});
