import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDb } from "@/lib/db/client";
import { diskTrash } from "@/lib/db/schema/disk";
import { mailAttachments, mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { messagesOf, otherKey, receiveReply, type Seeded, threadRow } from "./mail-actors";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Seeded;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Rest only" });
});
afterAll(async () => {
  await server.close();
});

const REST_ONLY = ["delete_message", "batch_messages", "batch_threads", "get_raw_message", "get_message_attachment"];

async function api(method: string, path: string, body?: unknown, secret = seeded.secret) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

/** A conversation of two received messages (each with one attachment). */
async function conversation() {
  const mail = await seedReceivedMail(seeded.project.id);
  const reply = await receiveReply(seeded.project.id, mail.inbox, mail.message);
  return { ...mail, reply };
}

/** Outbound mail still queued in a thread: deleting it would pull the row from under the delivery job. */
async function queuedOutbound(mail: MailFixture) {
  const id = newId("msg");
  await (await getDb()).insert(mailMessages).values({
    id,
    projectId: seeded.project.id,
    mailboxId: mail.inbox,
    threadId: mail.thread,
    direction: "outbound",
    status: "queued",
    fromAddress: mail.address,
    to: ["ada@example.org"],
    subject: "Re: Quarterly numbers",
    labels: ["sent"],
  });
  return id;
}

const trashed = async (keys: string[]) =>
  (await (await getDb()).select({ k: diskTrash.blobKey }).from(diskTrash).where(inArray(diskTrash.blobKey, keys))).map((r) => r.k).sort();

async function blobsOf(messageId: string) {
  const db = await getDb();
  const [m] = await db.select({ raw: mailMessages.rawBlobKey }).from(mailMessages).where(eq(mailMessages.id, messageId));
  const atts = await db.select({ k: mailAttachments.blobKey }).from(mailAttachments).where(eq(mailAttachments.messageId, messageId));
  return [m.raw as string, ...atts.map((a) => a.k)];
}

describe("REST-only entries over MCP", () => {
  let client: Client;
  beforeAll(async () => {
    client = (await connectMcp(server.url, seeded.secret)).client;
  });
  afterAll(async () => {
    await client.close();
  });

  it("are absent from tools/list and refused as unknown tools", async () => {
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(listed).toContain("update_message");
    for (const name of REST_ONLY) {
      expect(listed).not.toContain(name);
      await expect(client.callTool({ name, arguments: {} })).rejects.toThrow(`Unknown tool: ${name}`);
    }
  });
});

describe("DELETE /inboxes/{inbox_id}/messages/{message_id}", () => {
  it("erases one message, its attachments and bytes, and recomputes the thread; a second call succeeds with deleted: false", async () => {
    const c = await conversation();
    const replyBlobs = await blobsOf(c.reply);
    const firstBlobs = await blobsOf(c.message);
    const res = await api("DELETE", `/inboxes/${c.inbox}/messages/${c.reply}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message_id: c.reply, thread_id: c.thread, deleted: true, thread_deleted: false });
    const db = await getDb();
    expect(await db.select().from(mailAttachments).where(eq(mailAttachments.messageId, c.reply))).toEqual([]);
    const t = await threadRow(seeded.project.id, c.thread);
    const [left] = await messagesOf(seeded.project.id, c.thread);
    expect(t).toMatchObject({
      messageCount: 1,
      lastMessageId: c.message,
      attachmentCount: 1,
      sizeBytes: left.sizeBytes,
      lastMessageAt: left.msgAt,
      visibleAt: left.msgAt,
    });
    expect(t.senders).toEqual(["ada@example.org"]);
    expect(await trashed([...replyBlobs, ...firstBlobs])).toEqual([...replyBlobs].sort());
    expect((await lastLedgerEntry(seeded.project.id, "delete.message"))?.subject).toBe(c.reply);

    const again = await api("DELETE", `/inboxes/${c.inbox}/messages/${c.reply}`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ message_id: c.reply, thread_id: null, deleted: false, thread_deleted: false });

    const last = await api("DELETE", `/inboxes/${c.address}/messages/${c.message}`);
    expect(last.json).toMatchObject({ deleted: true, thread_deleted: true });
    expect(await threadRow(seeded.project.id, c.thread)).toBeUndefined();
  });

  it("keeps bytes another row still points at (a forward's attachment by reference)", async () => {
    const c = await conversation();
    const db = await getDb();
    const [att] = await db.select().from(mailAttachments).where(eq(mailAttachments.messageId, c.reply));
    const other = await seedReceivedMail(seeded.project.id);
    await db.insert(mailAttachments).values({ ...att, id: newId("att"), messageId: other.message });
    const res = await api("DELETE", `/inboxes/${c.inbox}/messages/${c.reply}`);
    expect(res.json.deleted).toBe(true);
    expect(await trashed([att.blobKey])).toEqual([]);
  });

  it("outbound mail still queued → CONFLICT, nothing changes", async () => {
    const c = await conversation();
    const queued = await queuedOutbound(c);
    const before = { thread: await threadRow(seeded.project.id, c.thread), messages: await messagesOf(seeded.project.id, c.thread) };
    const res = await api("DELETE", `/inboxes/${c.inbox}/messages/${queued}`);
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("CONFLICT");
    expect({ thread: await threadRow(seeded.project.id, c.thread), messages: await messagesOf(seeded.project.id, c.thread) }).toEqual(before);
  });

  it("another mailbox's key gets NOT_FOUND, a key without message_delete 403; the message stays", async () => {
    const c = await conversation();
    const box = await seedMailbox(seeded.project.id);
    const restricted = await otherKey(seeded, ["message_delete"], box.id);
    expect((await api("DELETE", `/inboxes/${c.inbox}/messages/${c.reply}`, undefined, restricted.secret)).json.error.code).toBe("NOT_FOUND");
    const reader = await otherKey(seeded, ["message_read"]);
    const r = await api("DELETE", `/inboxes/${c.inbox}/messages/${c.reply}`, undefined, reader.secret);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("missing_permission");
    expect((await messagesOf(seeded.project.id, c.thread)).map((m) => m.id)).toContain(c.reply);
  });
});

describe("POST /inboxes/{inbox_id}/messages/batch", () => {
  it("get: a result per id, in order, by msg_ id or Message-ID; an unknown id fails alone", async () => {
    const c = await conversation();
    const [first] = await messagesOf(seeded.project.id, c.thread);
    const res = await api("POST", `/inboxes/${c.inbox}/messages/batch`, { action: "get", ids: [c.reply, `<${first.rfcMessageId}>`, "msg_nope", c.reply] });
    expect(res.status).toBe(200);
    expect(res.json.action).toBe("get");
    expect(res.json.results).toEqual([
      { id: c.reply, ok: true, item: expect.objectContaining({ message_id: c.reply, thread_id: c.thread, text: expect.stringContaining("Thanks") }) },
      {
        id: `<${first.rfcMessageId}>`,
        ok: true,
        item: expect.objectContaining({ message_id: c.message, attachments: [expect.objectContaining({ filename: "q3.csv" })] }),
      },
      { id: "msg_nope", ok: false, error: { code: "NOT_FOUND", message: expect.any(String) } },
    ]);
  });

  it("label and trash: labels per id, the thread follows; delete: erased, an in-flight one refused alone", async () => {
    const c = await conversation();
    const labelled = await api("POST", `/inboxes/${c.inbox}/messages/batch`, {
      action: "label",
      ids: [c.message, "msg_nope"],
      add_labels: ["batch-x"],
      remove_labels: ["unread"],
    });
    expect(labelled.json.results).toEqual([
      { id: c.message, ok: true, labels: ["batch-x", "received"] },
      { id: "msg_nope", ok: false, error: expect.objectContaining({ code: "NOT_FOUND" }) },
    ]);
    expect((await threadRow(seeded.project.id, c.thread)).labels).toContain("batch-x");
    const trash = await api("POST", `/inboxes/${c.inbox}/messages/batch`, { action: "trash", ids: [c.message, c.reply] });
    expect(trash.json.results.every((r: { labels: string[] }) => r.labels.includes("trash"))).toBe(true);
    expect((await threadRow(seeded.project.id, c.thread)).visibleAt).toBeNull();

    const queued = await queuedOutbound(c);
    const del = await api("POST", `/inboxes/${c.inbox}/messages/batch`, { action: "delete", ids: [c.reply, queued, "msg_gone"] });
    expect(del.json.results).toEqual([
      { id: c.reply, ok: true, deleted: true },
      { id: queued, ok: false, error: expect.objectContaining({ code: "CONFLICT" }) },
      { id: "msg_gone", ok: true, deleted: false },
    ]);
    expect((await messagesOf(seeded.project.id, c.thread)).map((m) => m.id).sort()).toEqual([c.message, queued].sort());
  });

  it("refuses bad input naming the field, before changing anything", async () => {
    const c = await conversation();
    const before = await messagesOf(seeded.project.id, c.thread);
    const cases: [unknown, string][] = [
      [{ action: "label", ids: [c.message], add_labels: ["sent"] }, "add_labels.0"],
      [{ action: "label", ids: [c.message], remove_labels: ["UNREAD "] }, "remove_labels.0"],
      [{ action: "label", ids: [c.message] }, "add_labels"],
      [{ action: "trash", ids: [c.message], add_labels: ["x"] }, "add_labels"],
      [{ action: "get", ids: [] }, "ids"],
      [{ action: "get", ids: Array.from({ length: 101 }, (_, i) => `msg_${i}`) }, "ids"],
      [{ action: "archive", ids: [c.message] }, "action"],
    ];
    for (const [body, field] of cases) {
      const res = await api("POST", `/inboxes/${c.inbox}/messages/batch`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe("validation_error");
      expect(res.json.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect(await messagesOf(seeded.project.id, c.thread)).toEqual(before);
  });

  it("each action needs its own scope: label message_update, trash and delete message_delete", async () => {
    const c = await conversation();
    const reader = await otherKey(seeded, ["message_read"]);
    expect((await api("POST", `/inboxes/${c.inbox}/messages/batch`, { action: "get", ids: [c.message] }, reader.secret)).status).toBe(200);
    for (const [body, scope] of [
      [{ action: "label", ids: [c.message], add_labels: ["x"] }, "message_update"],
      [{ action: "trash", ids: [c.message] }, "message_delete"],
      [{ action: "delete", ids: [c.message] }, "message_delete"],
    ] as const) {
      const res = await api("POST", `/inboxes/${c.inbox}/messages/batch`, body, reader.secret);
      expect(res.status).toBe(403);
      expect(res.json.error).toMatchObject({ code: "missing_permission", message: expect.stringContaining(scope) });
    }
    expect((await messagesOf(seeded.project.id, c.thread)).length).toBe(2);
  });
});

describe("POST /threads/batch", () => {
  it("get, label, trash and delete threads, a result per id; outside the key's mailbox is NOT_FOUND", async () => {
    const a = await conversation();
    const b = await seedReceivedMail(seeded.project.id);
    const got = await api("POST", "/threads/batch", { action: "get", ids: [a.thread, "thr_nope"] });
    expect(got.json.results).toEqual([
      { id: a.thread, ok: true, item: expect.objectContaining({ thread_id: a.thread, message_count: 2 }) },
      { id: "thr_nope", ok: false, error: expect.objectContaining({ code: "NOT_FOUND" }) },
    ]);
    const labelled = await api("POST", "/threads/batch", { action: "label", ids: [a.thread, b.thread], add_labels: ["t-batch"] });
    expect(labelled.json.results.map((r: { labels: string[] }) => r.labels.includes("t-batch"))).toEqual([true, true]);
    for (const m of await messagesOf(seeded.project.id, a.thread)) expect(m.labels).toContain("t-batch");
    const trash = await api("POST", "/threads/batch", { action: "trash", ids: [b.thread], inbox_id: b.inbox });
    expect(trash.json.results[0].labels).toContain("trash");
    expect((await threadRow(seeded.project.id, b.thread)).visibleAt).toBeNull();

    const box = await seedMailbox(seeded.project.id);
    const restricted = await otherKey(seeded, ["message_read", "message_delete"], box.id);
    const refused = await api("POST", "/threads/batch", { action: "trash", ids: [a.thread] }, restricted.secret);
    expect(refused.json.results).toEqual([{ id: a.thread, ok: false, error: expect.objectContaining({ code: "NOT_FOUND" }) }]);

    const del = await api("POST", "/threads/batch", { action: "delete", ids: [a.thread, b.thread] });
    expect(del.json.results).toEqual([
      { id: a.thread, ok: true, deleted: true },
      { id: b.thread, ok: true, deleted: true },
    ]);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(mailThreads)
        .where(and(eq(mailThreads.projectId, seeded.project.id), inArray(mailThreads.id, [a.thread, b.thread]))),
    ).toEqual([]);
    expect((await api("POST", "/threads/batch", { action: "delete", ids: [a.thread] })).json.results).toEqual([{ id: a.thread, ok: true, deleted: false }]);
  });
});

describe("downloads with the bearer", () => {
  it("are documented in OpenAPI as bytes of the types they serve; the other REST-only entries as JSON", async () => {
    const doc = (await api("GET", "/openapi.json")).json;
    const ok = (path: string, method: string) => doc.paths[`/api/v1${path}`][method].responses["200"].content;
    // Before: application/octet-stream for each, though they serve message/rfc822, the attachment's type, CSV, NDJSON.
    expect(ok("/inboxes/{inbox_id}/messages/{message_id}/raw", "get")).toEqual({ "message/rfc822": { schema: { type: "string", format: "binary" } } });
    expect(Object.keys(ok("/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}", "get"))).toEqual(["*/*"]);
    expect(Object.keys(ok("/owner/ledger/export", "get"))).toEqual(["text/csv", "application/x-ndjson"]);
    expect(Object.keys(ok("/inboxes/{inbox_id}/messages/batch", "post"))).toEqual(["application/json"]);
    expect(Object.keys(ok("/inboxes/{inbox_id}/messages/{message_id}", "delete"))).toEqual(["application/json"]);
  });

  it("GET …/raw: the .eml as received, message/rfc822, as an attachment", async () => {
    const mail = await seedReceivedMail(seeded.project.id);
    const res = await api("GET", `/inboxes/${mail.inbox}/messages/${mail.message}/raw`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("message/rfc822");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${mail.message}.eml"; filename*=UTF-8''${mail.message}.eml`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.text).toContain("Subject: Quarterly numbers");
    expect(res.text).toContain("Content-Type: multipart/mixed");
    const queued = await queuedOutbound(mail);
    const none = await api("GET", `/inboxes/${mail.inbox}/messages/${queued}/raw`);
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe("NOT_FOUND");
  });

  it("GET …/messages/{id}/attachments/{aid}: the bytes, as an attachment; another message's attachment is NOT_FOUND", async () => {
    const c = await conversation();
    const res = await api("GET", `/inboxes/${c.inbox}/messages/${c.message}/attachments/${c.attachment}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("quarter,revenue\nq3,42\n");
    expect(res.headers.get("content-disposition")).toContain("attachment;");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    const wrong = await api("GET", `/inboxes/${c.inbox}/messages/${c.reply}/attachments/${c.attachment}`);
    expect(wrong.status).toBe(404);
    expect(wrong.json.error.code).toBe("NOT_FOUND");
    const box = await seedMailbox(seeded.project.id);
    const restricted = await otherKey(seeded, ["message_read"], box.id);
    expect((await api("GET", `/inboxes/${c.inbox}/messages/${c.message}/attachments/${c.attachment}`, undefined, restricted.secret)).status).toBe(404);
    const noKey = await fetch(`${server.url}/api/v1/inboxes/${c.inbox}/messages/${c.message}/attachments/${c.attachment}`);
    expect(noKey.status).toBe(401);
  });
});
