import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { getMessage } from "@/lib/tools/mailboxes/get-message";
import { listMessages } from "@/lib/tools/mailboxes/list-messages";
import { listThreads } from "@/lib/tools/mailboxes/list-threads";
import { searchMessages } from "@/lib/tools/mailboxes/search-messages";
import { searchThreads } from "@/lib/tools/mailboxes/search-threads";
import { actorVia, call, otherKey, refusal, type Seeded } from "./mail-actors";
import { insertThread } from "./read-fixtures";

/** list_messages and get_message through runTool (both casings) and over HTTP with the MCP SDK client. */
let seeded: Seeded;
let inbox: string;
let other: string;
let mail: MailFixture;
const m: Record<string, string> = {};

const at = (minute: number) => `2026-11-21T08:${String(minute).padStart(2, "0")}:00.000Z`;

beforeAll(async () => {
  seeded = await seedProject({ name: "Messages read" });
  inbox = (await seedMailbox(seeded.project.id)).id;
  other = (await seedMailbox(seeded.project.id)).id;
  const one = async (name: string, msg: Parameters<typeof insertThread>[2][number], mailboxId = inbox) => {
    m[name] = (await insertThread(seeded.project.id, mailboxId, [msg])).messageIds[0];
  };
  await one("plain", {
    at: at(1),
    subject: "Invoice 100% paid",
    from: "ann@example.org",
    fromName: "Ann Lee",
    to: ["ops@corp.test"],
    labels: ["received", "billing"],
  });
  await one("spam", { at: at(2), subject: "Cheap", from: "x@bad.test", category: "spam", labels: ["received", "spam"] });
  await one("blocked", { at: at(3), subject: "Blocked", from: "y@bad.test", category: "blocked", labels: ["received", "blocked"] });
  await one("unauth", { at: at(4), subject: "Bank", from: "z@bank.test", category: "unauthenticated", labels: ["received", "unauthenticated"] });
  await one("trash", { at: at(5), subject: "Old", from: "ann@example.org", labels: ["received", "trash"] });
  await one("sent", {
    at: at(6),
    subject: "Re: a_b plan",
    from: "me@box.test",
    to: ["Bob@Example.org", "cfo@corp.test"],
    labels: ["sent"],
    direction: "outbound",
    rfcMessageId: "plan-1@box.test",
  });
  await one("elsewhere", { at: at(7), subject: "Other inbox" }, other);
  mail = await seedReceivedMail(seeded.project.id, inbox);
});

const mcp = () => actorVia(seeded, "mcp");
const rest = () => actorVia(seeded, "rest");
const ids = (out: Record<string, any>) => (out.messages as { message_id: string }[]).map((x) => x.message_id);
const list = async (args: Record<string, unknown>) => ids(await call(listMessages, mcp(), { inboxId: inbox, limit: 100, before: "2026-11-22", ...args }));

describe("list_messages", () => {
  it("newest first, metadata and preview only; hidden kinds only with their flag", async () => {
    expect(await list({})).toEqual([m.sent, m.plain]);
    const out = await call(listMessages, mcp(), { inboxId: inbox, limit: 1, before: "2026-11-22" });
    expect(out.messages[0]).toEqual({
      inbox_id: inbox,
      thread_id: expect.stringMatching(/^thr_/),
      message_id: m.sent,
      rfc_message_id: "plan-1@box.test",
      labels: ["sent"],
      timestamp: at(6),
      from: "me@box.test",
      to: ["Bob@Example.org", "cfo@corp.test"],
      cc: [],
      reply_to: [],
      subject: "Re: a_b plan",
      preview: "Hello there",
      attachments: [],
      in_reply_to: null,
      references: [],
      size: expect.any(Number),
      authentication: null,
      send_status: "sent",
      send_reason: null,
      direction: "outbound",
      created_at: at(6),
    });
    expect(await list({ includeSpam: true })).toEqual([m.sent, m.spam, m.plain]);
    expect(await list({ includeBlocked: true })).toEqual([m.sent, m.blocked, m.plain]);
    expect(await list({ includeUnauthenticated: true })).toEqual([m.sent, m.unauth, m.plain]);
    expect(await list({ includeTrash: true })).toEqual([m.sent, m.trash, m.plain]);
    expect(await list({ ascending: true, includeTrash: true, includeSpam: true })).toEqual([m.plain, m.spam, m.trash, m.sent]);
  });

  it("from (address or name), to, subject: case-insensitive substrings, all must match; labels all; before/after", async () => {
    expect(await list({ from: ["ANN LEE"] })).toEqual([m.plain]);
    expect(await list({ from: ["ann@", "lee"] })).toEqual([m.plain]);
    expect(await list({ from: ["ann@", "bob"] })).toEqual([]);
    expect(await list({ to: ["bob@example", "CFO@"] })).toEqual([m.sent]);
    expect(await list({ subject: ["a_b"] })).toEqual([m.sent]);
    expect(await list({ subject: ["a%"] })).toEqual([]);
    expect(await list({ subject: ["100%"] })).toEqual([m.plain]);
    expect(await list({ labels: ["billing", "received"] })).toEqual([m.plain]);
    expect(await list({ labels: ["billing", "sent"] })).toEqual([]);
    expect(await list({ after: at(1), before: at(6), includeSpam: true })).toEqual([m.spam]);
  });

  it("pages every message once over REST's casing; attachment metadata of received mail", async () => {
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const out: Record<string, any> = await call(listMessages, rest(), {
        inbox_id: inbox,
        limit: 1,
        include_trash: true,
        ...(token ? { page_token: token } : {}),
      });
      seen.push(...ids(out));
      token = out.next_page_token;
    } while (token);
    expect(seen).toEqual([mail.message, m.sent, m.trash, m.plain]);
    const first = (await call(listMessages, mcp(), { inboxId: inbox, limit: 1 })).messages[0];
    expect(first).toMatchObject({
      message_id: mail.message,
      attachments: [{ attachment_id: mail.attachment, filename: "q3.csv", content_type: "text/csv", inline: false }],
    });
    expect(first).not.toHaveProperty("text");
    expect(first).not.toHaveProperty("html");
    expect(first).not.toHaveProperty("extracted_text");
  });

  it("bad inputs: inboxId required, limit, pageToken, before, unknown argument", async () => {
    expect((await refusal(listMessages, mcp(), {})).details).toEqual([{ field: "inboxId", message: expect.any(String) }]);
    expect((await refusal(listMessages, rest(), {})).details).toEqual([{ field: "inbox_id", message: expect.any(String) }]);
    for (const limit of [0, 101, "10"])
      expect((await refusal(listMessages, mcp(), { inboxId: inbox, limit })).details).toEqual([{ field: "limit", message: expect.any(String) }]);
    const token = (await call(listMessages, mcp(), { inboxId: inbox, limit: 1 })).next_page_token;
    for (const args of [
      { inboxId: inbox, pageToken: "garbage" },
      { inboxId: other, pageToken: token },
      { inboxId: inbox, from: ["x"], pageToken: token },
    ]) {
      const e = await refusal(listMessages, mcp(), args);
      expect([e.code, e.details]).toEqual(["validation_error", [{ field: "pageToken", message: expect.any(String) }]]);
    }
    expect((await refusal(listMessages, mcp(), { inboxId: inbox, after: "yesterday" })).details).toEqual([
      { field: "after", message: expect.stringContaining("ISO 8601") },
    ]);
    expect((await refusal(listMessages, mcp(), { inboxId: inbox, bogus: 1 })).details).toEqual([{ field: "bogus", message: "Unknown argument: bogus" }]);
  });

  it("a restricted key: its own inbox only; another inbox is NOT_FOUND", async () => {
    const restricted = await otherKey(seeded, ["message_read"], other);
    expect(ids(await call(listMessages, restricted.actor("mcp"), { inboxId: other }))).toEqual([m.elsewhere]);
    expect((await refusal(listMessages, restricted.actor("mcp"), { inboxId: inbox })).code).toBe("NOT_FOUND");
  });
});

describe("the inbox a list or search names", () => {
  it("unknown, another project's, or deleted with mail in it: NOT_FOUND with the same text; an empty inbox: an empty page", async () => {
    const foreign = await seedProject({ name: "Foreign" });
    const theirs = (await seedMailbox(foreign.project.id)).id;
    await insertThread(foreign.project.id, theirs, [{ at: at(8), subject: "Invoice abroad" }]);
    const gone = (await seedMailbox(seeded.project.id)).id;
    await insertThread(seeded.project.id, gone, [{ at: at(9), subject: "Invoice gone" }]);
    await (await getDb()).update(mailboxes).set({ deletedAt: new Date() }).where(eq(mailboxes.id, gone));
    const empty = (await seedMailbox(seeded.project.id)).id;
    const tools = [
      [listMessages, {}],
      [listThreads, {}],
      [searchMessages, { q: "invoice" }],
      [searchThreads, { q: "invoice" }],
    ] as const;
    for (const [tool, args] of tools) {
      for (const ref of ["mbx_doesNotExist0000000000", theirs, gone]) {
        const e = await refusal(tool, mcp(), { inboxId: ref, ...args });
        expect([tool.name, e.code, e.message]).toEqual([tool.name, "NOT_FOUND", `Inbox ${ref} was not found.`]);
      }
      const out = await call(tool, mcp(), { inboxId: empty, ...args });
      expect([tool.name, out.count]).toEqual([tool.name, 0]);
    }
  });
});

describe("get_message", () => {
  it("received mail in full: bodies, extracted text, verdicts, attachment metadata", async () => {
    const out = await call(getMessage, mcp(), { inboxId: inbox, messageId: mail.message });
    expect(out).toMatchObject({
      message_id: mail.message,
      thread_id: mail.thread,
      inbox_id: inbox,
      from: "Ada <ada@example.org>",
      subject: "Quarterly numbers",
      text: expect.stringContaining("The numbers are attached."),
      html: expect.stringContaining("<p>The numbers are attached.</p>"),
      extracted_text: expect.stringContaining("The numbers are attached."),
      labels: ["received", "unread"],
      direction: "inbound",
      send_status: null,
      authentication: { spf: expect.any(String), dkim: expect.any(String), dmarc: expect.any(String) },
      attachments: [{ attachment_id: mail.attachment, filename: "q3.csv", content_type: "text/csv", inline: false, size: expect.any(Number) }],
    });
    expect(Object.keys(out.authentication)).toEqual(["spf", "dkim", "dmarc"]);
  });

  it("accepts the RFC Message-ID with or without angle brackets (design D2), over both casings", async () => {
    const byId = await call(getMessage, mcp(), { inboxId: inbox, messageId: m.sent });
    expect(await call(getMessage, mcp(), { inboxId: inbox, messageId: "<plan-1@box.test>" })).toEqual(byId);
    expect(await call(getMessage, rest(), { inbox_id: inbox, message_id: "plan-1@box.test" })).toEqual(byId);
    const received = await call(getMessage, mcp(), { inboxId: inbox, messageId: mail.message });
    expect((await call(getMessage, mcp(), { inboxId: inbox, messageId: `<${received.rfc_message_id}>` })).message_id).toBe(mail.message);
  });

  it("a message of another inbox, project or outside the restriction is NOT_FOUND", async () => {
    expect((await refusal(getMessage, mcp(), { inboxId: inbox, messageId: m.elsewhere })).code).toBe("NOT_FOUND");
    expect((await refusal(getMessage, mcp(), { inboxId: inbox, messageId: "<nope@example.org>" })).code).toBe("NOT_FOUND");
    const restricted = await otherKey(seeded, ["message_read"], other);
    expect((await refusal(getMessage, restricted.actor("mcp"), { inboxId: inbox, messageId: m.plain })).code).toBe("NOT_FOUND");
    const stranger = await seedProject({ name: "Stranger" });
    expect((await refusal(getMessage, actorVia(stranger, "mcp"), { inboxId: inbox, messageId: m.plain })).code).toBe("NOT_FOUND");
    expect((await refusal(getMessage, mcp(), { inboxId: inbox })).details).toEqual([{ field: "messageId", message: expect.any(String) }]);
  });
});

describe("over HTTP with the MCP SDK client and REST", () => {
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

  it("list_messages and get_message validate against their output schemas; REST serves the same", async () => {
    const listed = await client.callTool({ name: "list_messages", arguments: { inboxId: inbox, limit: 2 } });
    expect(listed.isError).toBeFalsy();
    expect(ids(listed.structuredContent as Record<string, any>)).toEqual([mail.message, m.sent]);
    const got = await client.callTool({ name: "get_message", arguments: { inboxId: inbox, messageId: "<plan-1@box.test>" } });
    expect((got.structuredContent as { message_id: string }).message_id).toBe(m.sent);
    const res = await fetch(`${server.url}/api/v1/inboxes/${inbox}/messages/${encodeURIComponent("<plan-1@box.test>")}`, {
      headers: { authorization: `Bearer ${seeded.secret}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(got.structuredContent);
  });
});
