import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { applyLabels } from "@/lib/mail/labels/apply-labels";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { deleteThread } from "@/lib/tools/mailboxes/delete-thread";
import { updateMessage } from "@/lib/tools/mailboxes/update-message";
import { updateThread } from "@/lib/tools/mailboxes/update-thread";
import { actorVia, call, messagesOf, otherKey, receiveReply, refusal, type Seeded, threadRow } from "./mail-actors";

let seeded: Seeded;
let mail: MailFixture;
let reply: string;

beforeAll(async () => {
  seeded = await seedProject({ name: "Labels" });
  mail = await seedReceivedMail(seeded.project.id);
  reply = await receiveReply(seeded.project.id, mail.inbox, mail.message);
});

const mcp = () => actorVia(seeded, "mcp");
const rest = () => actorVia(seeded, "rest");

/** The rows a refused call must leave alone: every message's labels and the thread's summary. */
const snapshot = async (threadId = mail.thread) => ({
  thread: await threadRow(seeded.project.id, threadId),
  messages: await messagesOf(seeded.project.id, threadId),
});

describe("update_thread", () => {
  it("adds a user label and removes unread on every message; the thread's labels are the union, in both casings", async () => {
    const viaMcp = await call(updateThread, mcp(), { threadId: mail.thread, addLabels: ["follow-up", "billing/q3"], removeLabels: ["unread"] });
    expect(viaMcp).toEqual({ thread_id: mail.thread, labels: ["billing/q3", "follow-up", "received"] });
    for (const m of await messagesOf(seeded.project.id, mail.thread)) expect(m.labels).toEqual(["billing/q3", "follow-up", "received"]);
    const viaRest = await call(updateThread, rest(), { thread_id: mail.thread, inbox_id: mail.address, add_labels: ["unread"], remove_labels: ["billing/q3"] });
    expect(viaRest).toEqual({ thread_id: mail.thread, labels: ["follow-up", "received", "unread"] });
  });

  it("is idempotent: the same call twice gives the same labels and writes nothing the second time", async () => {
    const args = { threadId: mail.thread, addLabels: ["vip"] };
    const first = await call(updateThread, mcp(), args);
    const before = await snapshot();
    expect(await call(updateThread, mcp(), args)).toEqual(first);
    expect(await snapshot()).toEqual(before);
  });

  it("a label both added and removed is removed", async () => {
    await call(updateThread, mcp(), { threadId: mail.thread, addLabels: ["later"] });
    const out = await call(updateThread, mcp(), { threadId: mail.thread, addLabels: ["later", "x1"], removeLabels: ["later"] });
    expect(out.labels).toContain("x1");
    expect(out.labels).not.toContain("later");
  });

  it.each([
    ["sent", "addLabels", "is a system label"],
    ["trash", "addLabels", "is a system label"],
    ["received", "removeLabels", "is a system label"],
    ["spam", "removeLabels", "is a system label"],
    ["UNREAD ", "addLabels", "is not a valid label"],
    ["Follow-Up", "addLabels", "is not a valid label"],
    ["a".repeat(65), "addLabels", "is not a valid label"],
    ["-x", "removeLabels", "is not a valid label"],
  ])("refuses %j in %s with validation_error naming the label, and changes no row", async (label, field, why) => {
    const before = await snapshot();
    const shown = JSON.stringify(label.length > 80 ? `${label.slice(0, 80)}…` : label);
    const e = await refusal(updateThread, mcp(), { threadId: mail.thread, addLabels: ["ok-label"], [field]: ["fine", label] });
    expect(e.code).toBe("validation_error");
    expect(e.details).toEqual([{ field: `${field}.1`, message: expect.stringContaining(`${shown} ${why}`) }]);
    // Over REST the field is named as the REST caller wrote it.
    const snake = field === "addLabels" ? "add_labels" : "remove_labels";
    const r = await refusal(updateThread, rest(), { thread_id: mail.thread, [snake]: ["fine", label] });
    expect(r.details).toEqual([{ field: `${snake}.1`, message: expect.stringContaining(why) }]);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses 21 labels naming the field; 20 are accepted", async () => {
    const labels = (n: number) => Array.from({ length: n }, (_, i) => `l${i}`);
    const before = await snapshot();
    const e = await refusal(updateThread, mcp(), { threadId: mail.thread, addLabels: labels(21) });
    expect(e.code).toBe("validation_error");
    expect(e.details).toEqual([{ field: "addLabels", message: expect.stringContaining("20") }]);
    expect(await snapshot()).toEqual(before);
    // Twenty per call, added and removed together.
    const both = await refusal(updateThread, rest(), { thread_id: mail.thread, add_labels: labels(11), remove_labels: labels(10) });
    expect(both.details).toEqual([{ field: "remove_labels", message: expect.stringContaining("at most 20 labels per call") }]);
    expect(await snapshot()).toEqual(before);
    const out = await call(updateThread, mcp(), { threadId: mail.thread, addLabels: labels(20) });
    expect(out.labels).toEqual(expect.arrayContaining(labels(20)));
    await call(updateThread, mcp(), { threadId: mail.thread, removeLabels: labels(20) });
  });

  it("a thread of another mailbox, project or outside a key's restriction is NOT_FOUND", async () => {
    const other = await seedMailbox(seeded.project.id);
    const e = await refusal(updateThread, mcp(), { threadId: mail.thread, inboxId: other.id, addLabels: ["x"] });
    expect(e.code).toBe("NOT_FOUND");
    const restricted = await otherKey(seeded, ["message_update"], other.id);
    const r = await refusal(updateThread, restricted.actor("mcp"), { threadId: mail.thread, addLabels: ["x"] });
    expect(r.code).toBe("NOT_FOUND");
    expect(r.message).toBe(`Thread ${mail.thread} was not found.`);
    const elsewhere = await seedProject({ name: "Elsewhere" });
    expect((await refusal(updateThread, actorVia(elsewhere, "mcp"), { threadId: mail.thread, addLabels: ["x"] })).code).toBe("NOT_FOUND");
    expect((await refusal(updateThread, mcp(), { threadId: "thr_nope", addLabels: ["x"] })).code).toBe("NOT_FOUND");
  });

  it("needs message_update", async () => {
    const reader = await otherKey(seeded, ["message_read"]);
    expect((await refusal(updateThread, reader.actor("mcp"), { threadId: mail.thread })).code).toBe("missing_permission");
  });
});

describe("update_message", () => {
  it("labels one message; the thread's union follows, and loses the label when no message has it", async () => {
    const out = await call(updateMessage, mcp(), { inboxId: mail.inbox, messageId: reply, addLabels: ["only-reply"] });
    expect(out).toEqual({ message_id: reply, thread_id: mail.thread, labels: expect.arrayContaining(["only-reply", "received"]) });
    expect((await threadRow(seeded.project.id, mail.thread)).labels).toContain("only-reply");
    const [first] = await messagesOf(seeded.project.id, mail.thread);
    expect(first.labels).not.toContain("only-reply");
    const back = await call(updateMessage, rest(), { inbox_id: mail.inbox, message_id: reply, remove_labels: ["only-reply"] });
    expect(back.labels).not.toContain("only-reply");
    expect((await threadRow(seeded.project.id, mail.thread)).labels).not.toContain("only-reply");
  });

  it("accepts the RFC Message-ID, with or without angle brackets", async () => {
    const [first] = await messagesOf(seeded.project.id, mail.thread);
    const out = await call(updateMessage, mcp(), { inboxId: mail.inbox, messageId: `<${first.rfcMessageId}>`, addLabels: ["by-rfc"] });
    expect(out.message_id).toBe(first.id);
    expect((await call(updateMessage, mcp(), { inboxId: mail.inbox, messageId: first.rfcMessageId, removeLabels: ["by-rfc"] })).labels).not.toContain("by-rfc");
  });

  it("refuses a system label naming it, and another inbox's message is NOT_FOUND; nothing changes", async () => {
    const before = await snapshot();
    const e = await refusal(updateMessage, rest(), { inbox_id: mail.inbox, message_id: reply, add_labels: ["delivered"] });
    expect(e.details).toEqual([{ field: "add_labels.0", message: expect.stringContaining('"delivered" is a system label') }]);
    const other = await seedMailbox(seeded.project.id);
    expect((await refusal(updateMessage, mcp(), { inboxId: other.id, messageId: reply, addLabels: ["x"] })).code).toBe("NOT_FOUND");
    expect(await snapshot()).toEqual(before);
  });
});

describe("visible_at and the label union", () => {
  it("follow the newest message that is normal and not in the trash", async () => {
    const fresh = await seedReceivedMail(seeded.project.id);
    const second = await receiveReply(seeded.project.id, fresh.inbox, fresh.message);
    const [older, newer] = await messagesOf(seeded.project.id, fresh.thread);
    expect(newer.id).toBe(second);
    expect((await threadRow(seeded.project.id, fresh.thread)).visibleAt).toEqual(newer.msgAt);
    const db = await getDb();
    // Trashing the newer message leaves the older one visible.
    await db.transaction((tx) => applyLabels(tx, { projectId: seeded.project.id, messageIds: [newer.id], change: { add: ["trash"], remove: [] } }));
    let t = await threadRow(seeded.project.id, fresh.thread);
    expect(t.visibleAt).toEqual(older.msgAt);
    expect(t.labels).toContain("trash");
    // An older message that is spam does not count either: nothing visible is left.
    await db
      .update(mailMessages)
      .set({ category: "spam" })
      .where(and(eq(mailMessages.projectId, seeded.project.id), eq(mailMessages.id, older.id)));
    await db.transaction((tx) => applyLabels(tx, { projectId: seeded.project.id, messageIds: [older.id], change: { add: ["spam-checked"], remove: [] } }));
    t = await threadRow(seeded.project.id, fresh.thread);
    expect(t.visibleAt).toBeNull();
    // Out of the trash again (the owner's restore uses the same function): the newer message is visible.
    await db.transaction((tx) => applyLabels(tx, { projectId: seeded.project.id, threadIds: [fresh.thread], change: { add: [], remove: ["trash"] } }));
    t = await threadRow(seeded.project.id, fresh.thread);
    expect(t.visibleAt).toEqual(newer.msgAt);
    expect(t.labels).not.toContain("trash");
  });
});

describe("delete_thread", () => {
  it("moves the whole thread to the trash, hides it, and a second call succeeds without change", async () => {
    const fresh = await seedReceivedMail(seeded.project.id);
    await receiveReply(seeded.project.id, fresh.inbox, fresh.message);
    const out = await call(deleteThread, mcp(), { threadId: fresh.thread });
    expect(out).toEqual({ thread_id: fresh.thread, labels: expect.arrayContaining(["trash", "received"]) });
    for (const m of await messagesOf(seeded.project.id, fresh.thread)) expect(m.labels).toContain("trash");
    const before = await snapshot(fresh.thread);
    expect(before.thread.visibleAt).toBeNull();
    expect(await call(deleteThread, rest(), { thread_id: fresh.thread, inbox_id: fresh.inbox })).toEqual(out);
    expect(await snapshot(fresh.thread)).toEqual(before);
  });

  it("needs message_delete; a thread outside the key's mailbox is NOT_FOUND and stays as it was", async () => {
    const fresh = await seedReceivedMail(seeded.project.id);
    const before = await snapshot(fresh.thread);
    const updater = await otherKey(seeded, ["message_update", "message_read"]);
    expect((await refusal(deleteThread, updater.actor("mcp"), { threadId: fresh.thread })).code).toBe("missing_permission");
    const other = await seedMailbox(seeded.project.id);
    const restricted = await otherKey(seeded, ["message_delete"], other.id);
    expect((await refusal(deleteThread, restricted.actor("rest"), { thread_id: fresh.thread })).code).toBe("NOT_FOUND");
    expect(await snapshot(fresh.thread)).toEqual(before);
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

  it("update_thread and delete_thread are listed with the spec's annotations and answer in snake_case", async () => {
    const listed = (await client.listTools()).tools;
    expect(listed.find((t) => t.name === "update_thread")?.annotations).toMatchObject({ idempotentHint: true, destructiveHint: false, openWorldHint: true });
    expect(listed.find((t) => t.name === "delete_thread")?.annotations).toMatchObject({ idempotentHint: true, destructiveHint: true, openWorldHint: true });
    const fresh = await seedReceivedMail(seeded.project.id);
    const res = await client.callTool({ name: "update_thread", arguments: { threadId: fresh.thread, addLabels: ["via-mcp"] } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toEqual({ thread_id: fresh.thread, labels: expect.arrayContaining(["via-mcp"]) });
    const bad = await client.callTool({ name: "update_message", arguments: { inboxId: fresh.inbox, messageId: fresh.message, addLabels: ["UNREAD "] } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse((bad.content as { text: string }[])[0].text)).toMatchObject({ code: "validation_error" });
    const del = await client.callTool({ name: "delete_thread", arguments: { threadId: fresh.thread } });
    expect(del.structuredContent).toMatchObject({ thread_id: fresh.thread, labels: expect.arrayContaining(["trash"]) });
    // REST: PATCH with a snake_case body.
    const r = await fetch(`${server.url}/api/v1/threads/${fresh.thread}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ add_labels: ["via-rest"] }),
    });
    expect(r.status).toBe(200);
    expect((await r.json()).labels).toContain("via-rest");
  });
});
