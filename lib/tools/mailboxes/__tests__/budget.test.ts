import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { eq } from "drizzle-orm";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { startApiServer } from "@/lib/testing/api-server";
import { rawMail, seedMailbox } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { fitMcpResult, MCP_RESULT_BYTES } from "@/lib/tools/result-budget";
import { listMessages } from "@/lib/tools/mailboxes/list-messages";
import { listThreads } from "@/lib/tools/mailboxes/list-threads";
import { actorVia, call, type Seeded } from "./mail-actors";
import { insertThread } from "./read-fixtures";

/**
 * The mailbox spec's result budget on the read tools (design §4 A "The budget test"): a thread of 12 inbound
 * messages of about 30 KB, received through the real pipeline, read over MCP by the SDK client (which checks every
 * result against the published outputSchema) and over REST, which is never shortened.
 */
let seeded: Seeded;
let server: Awaited<ReturnType<typeof startApiServer>>;
let client: Client;
let inbox: string;
let threadId: string;
const messageIds: string[] = [];

const paragraph = (i: number) => `Paragraph ${i}: the quarterly figures, line by line, with notes on every account. `;
const body = (n: number, bytes: number) =>
  Array.from({ length: Math.ceil(bytes / 70) }, (_, i) => paragraph(n * 1000 + i))
    .join("\n")
    .slice(0, bytes);
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

beforeAll(async () => {
  seeded = await seedProject({ name: "Budget" });
  const box = await seedMailbox(seeded.project.id);
  inbox = box.id;
  const [mailbox] = await (await getDb()).select().from(mailboxes).where(eq(mailboxes.id, box.id));
  let parent: string | undefined;
  for (let i = 0; i < 12; i++) {
    const id = `<budget-${i}@example.org>`;
    const raw = await rawMail({
      from: "Ann <ann@example.org>",
      to: box.address,
      subject: i === 0 ? "Quarterly figures" : "Re: Quarterly figures",
      text: body(i, 15_000),
      html: `<p>${body(i, 15_000)}</p>`,
      messageId: id,
      ...(parent ? { inReplyTo: parent, references: [parent] } : {}),
    });
    const [stored] = await receiveMessage(raw, { mailFrom: "ann@example.org", recipients: [mailbox], remote: "local" });
    messageIds.push(stored.messageId);
    parent = id;
  }
  server = await startApiServer();
  client = (await connectMcp(server.url, seeded.secret)).client;
  const [first] = await (await getDb()).select({ threadId: mailMessages.threadId }).from(mailMessages).where(eq(mailMessages.id, messageIds[0]));
  threadId = first.threadId;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe("the 19,000-byte budget on get_thread and get_message", () => {
  it("get_thread of 12 × 30 KB over MCP: within the budget, truncated, the fix names REST, the SDK client validates it", async () => {
    const got = await client.callTool({ name: "get_thread", arguments: { threadId, limit: 12 } });
    expect(got.isError).toBeFalsy();
    const text = (got.content as { type: string; text: string }[])[0].text;
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    const out = got.structuredContent as Record<string, any>;
    expect(JSON.parse(text)).toEqual(out);
    expect(out).toMatchObject({
      thread_id: threadId,
      inbox_id: inbox,
      truncated: true,
      fix: expect.stringContaining(`GET /api/v1/threads/${threadId}`),
      count: 12,
      next_page_token: null,
    });
    // Every message is still there, identified, in conversation order.
    expect(out.messages.map((m: { message_id: string }) => m.message_id)).toEqual(messageIds);
  });

  it("REST returns the same thread in full", async () => {
    const res = await fetch(`${server.url}/api/v1/threads/${threadId}?limit=12`, { headers: { authorization: `Bearer ${seeded.secret}` } });
    expect(res.status).toBe(200);
    const out = (await res.json()) as Record<string, any>;
    expect(out).not.toHaveProperty("truncated");
    expect(out.messages).toHaveLength(12);
    for (const m of out.messages) {
      expect(m.text.length).toBeGreaterThanOrEqual(14_000);
      expect(m.html.length).toBeGreaterThanOrEqual(14_000);
    }
    expect(bytes(JSON.stringify(out))).toBeGreaterThan(12 * 30_000);
  });

  it("over MCP, get_thread reads long content as prefixes yet gives exactly the ladder's result on the full page", async () => {
    const withoutToken = ({ next_page_token: _token, ...rest }: Record<string, unknown>) => rest;
    const restPage = async (id: string, limit: number) =>
      (await (await fetch(`${server.url}/api/v1/threads/${id}?limit=${limit}`, { headers: { authorization: `Bearer ${seeded.secret}` } })).json()) as Record<
        string,
        unknown
      >;
    // 12 × 30 KB at several page sizes: rung 2048, 512, 0 or identifiers, from 2048- down to 1583-character prefixes.
    for (const limit of [1, 2, 3, 5, 12]) {
      const out = (await client.callTool({ name: "get_thread", arguments: { threadId, limit } })).structuredContent as Record<string, unknown>;
      expect(out.truncated).toBe(true);
      expect(withoutToken(out)).toEqual(withoutToken(fitMcpResult(await restPage(threadId, limit), { fix: String(out.fix) }).output));
    }
    // A short thread that fits whole although its 5,000-character body is longer than the first read's prefix: the
    // ladder asks for the rest, and the result is the thread in full, not marked.
    const box = (await (await getDb()).select().from(mailboxes).where(eq(mailboxes.id, inbox)))[0];
    const [stored] = await receiveMessage(
      await rawMail({ from: "bo@example.org", to: box.address, subject: "Short", text: body(99, 5_000), messageId: "<short@example.org>" }),
      {
        mailFrom: "bo@example.org",
        recipients: [box],
        remote: "local",
      },
    );
    const [{ threadId: shortThread }] = await (await getDb())
      .select({ threadId: mailMessages.threadId })
      .from(mailMessages)
      .where(eq(mailMessages.id, stored.messageId));
    const short = (await client.callTool({ name: "get_thread", arguments: { threadId: shortThread, limit: 12 } })).structuredContent as Record<string, any>;
    expect(short).not.toHaveProperty("truncated");
    expect(short.messages[0].text.length).toBeGreaterThanOrEqual(5_000);
    expect(short).toEqual(await restPage(shortThread, 12));
  });

  it("get_message of one 30 KB message over MCP is shortened with a fix naming its REST path", async () => {
    const got = await client.callTool({ name: "get_message", arguments: { inboxId: inbox, messageId: "<budget-3@example.org>" } });
    expect(got.isError).toBeFalsy();
    const text = (got.content as { type: string; text: string }[])[0].text;
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(got.structuredContent).toMatchObject({
      message_id: messageIds[3],
      truncated: true,
      fix: expect.stringContaining(`GET /api/v1/inboxes/${inbox}/messages/${messageIds[3]}`),
    });
  });

  it("lists are budgeted too: 60 messages (12 threads) with 100 recipients each over MCP fit, REST has them all", async () => {
    const crowded = await seedMailbox(seeded.project.id);
    const to = Array.from({ length: 100 }, (_, i) => `recipient-${i}@example.org`);
    for (let i = 0; i < 12; i++) {
      await insertThread(
        seeded.project.id,
        crowded.id,
        Array.from({ length: 5 }, (_, j) => ({ at: `2026-11-23T10:${String(i).padStart(2, "0")}:0${j}.000Z`, to, subject: `Crowded ${i}` })),
      );
    }
    const { runTool } = await import("@/lib/tools/run-tool");
    for (const [tool, args] of [
      [listMessages, { inboxId: crowded.id, limit: 60 }],
      [listThreads, { inboxId: crowded.id, limit: 60 }],
    ] as const) {
      const { output, text } = await runTool(tool, actorVia(seeded, "mcp"), args, new AbortController().signal);
      expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
      expect(output).toMatchObject({ truncated: true, fix: expect.stringContaining("A smaller limit") });
    }
    const full = await call(listMessages, actorVia(seeded, "rest"), { inbox_id: crowded.id, limit: 60 });
    expect(full.messages).toHaveLength(60);
    expect(full.messages[0].to).toHaveLength(100);
    expect(full).not.toHaveProperty("truncated");
  });
});
