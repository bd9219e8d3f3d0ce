import { and, eq, sql } from "drizzle-orm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { mailboxes, mailListEntries, mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { idempotencyKeys } from "@/lib/db/schema/idempotency";
import { newId } from "@/lib/ids";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedKey, seedProject } from "@/lib/testing/seed";

/**
 * Mailbox spec: "Sending tools accept idempotencyKey, sharing the same key space as REST's Idempotency-Key". Over real
 * HTTP on both transports: a retry (even a concurrent one) returns the first answer byte for byte and sends nothing;
 * the same key with another body, or for another tool, is a CONFLICT; a refused call leaves its key free; keys
 * expire 24 hours after their call.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let mcp: Client;
let from: Awaited<ReturnType<typeof seedMailbox>>;
let to: Awaited<ReturnType<typeof seedMailbox>>;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Idempotency" });
  mcp = (await connectMcp(server.url, seeded.secret)).client;
  from = await seedMailbox(seeded.project.id);
  to = await seedMailbox(seeded.project.id);
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

const body = (text: string) => ({ to: [to.address], subject: "Once", text });

function viaRest(key: string | null, args: Record<string, unknown>, secret = seeded.secret) {
  return fetch(`${server.url}/api/v1/inboxes/${from.id}/messages/send`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${secret}`, ...(key ? { "idempotency-key": key } : {}) },
    body: JSON.stringify(args),
  });
}

async function viaMcp(args: Record<string, unknown>) {
  const res = await mcp.callTool({ name: "send_message", arguments: { inboxId: from.id, ...args } });
  return { isError: Boolean(res.isError), text: (res.content as Array<{ text: string }>)[0].text };
}

async function sentWith(key: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.projectId, seeded.project.id), eq(idempotencyKeys.key, key)));
  return row;
}

const messagesTo = async (subject: string) =>
  (await getDb())
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.mailboxId, from.id), eq(mailMessages.subject, subject)));

describe("idempotency keys", () => {
  it("answers 50 concurrent sends with one key (half REST, half MCP) with one message and one delivery", async () => {
    const args = { ...body("exactly once"), subject: "Race" };
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0 ? viaRest("race-1", args).then(async (r) => ({ status: r.status, text: await r.text() })) : viaMcp({ ...args, idempotencyKey: "race-1" }),
    );
    const results = await Promise.all(calls);
    const texts = results.map((r) => ("status" in r ? (expect(r.status).toBe(200), r.text) : (expect(r.isError).toBe(false), r.text)));
    // Byte for byte the same answer on both transports.
    expect(new Set(texts).size).toBe(1);
    const answer = JSON.parse(texts[0]);
    expect(answer).toMatchObject({ message_id: expect.stringMatching(/^msg_/), send_status: "queued" });
    const sent = await messagesTo("Race");
    expect(sent.map((m) => m.id)).toEqual([answer.message_id]);
    const db = await getDb();
    expect(await db.select().from(mailDeliveries).where(eq(mailDeliveries.messageId, answer.message_id))).toHaveLength(1);
    const queued = await db.select().from(jobs).where(sql`${jobs.kind} = 'mail.deliver' and ${jobs.projectId} = ${seeded.project.id}`);
    expect(queued.filter((j) => (j.payload as { delivery_id?: string }).delivery_id)).toHaveLength(1);
    // Every call is ledgered, the replays with the same output digest as the first.
    const entries = await db
      .select({ digest: ledgerEntries.outputDigest })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, seeded.project.id), eq(ledgerEntries.op, "send.message")));
    expect(entries.length).toBeGreaterThanOrEqual(50);
  });

  it("refuses the same key with a different body, or for another tool, with CONFLICT on both transports, sending nothing", async () => {
    expect((await viaRest("k-body", body("first"))).status).toBe(200);
    const rest = await viaRest("k-body", body("second"));
    expect(rest.status).toBe(409);
    // The field in each caller's casing (REST named it idempotencyKey; found by helper-109).
    expect((await rest.json()).error).toMatchObject({ code: "CONFLICT", details: [{ field: "idempotency_key" }] });
    const overMcp = await viaMcp({ ...body("second"), idempotencyKey: "k-body" });
    expect(overMcp.isError).toBe(true);
    expect(JSON.parse(overMcp.text)).toMatchObject({
      code: "CONFLICT",
      fix: expect.stringContaining("new idempotency key"),
      details: [{ field: "idempotencyKey" }],
    });
    expect((await sentWith("k-body")).tool).toBe("send_message");
    expect(await messagesTo("Once")).toHaveLength(1);
  });

  // A replay was ledgered with no subject, so ledger_query by the message id missed every retry (found by helper-109).
  it("ledgers a retry under the first call's subject", async () => {
    const send = { ...body("subject"), subject: "Subject" };
    const first = await (await viaRest("k-subject", send)).json();
    expect((await viaRest("k-subject", send)).status).toBe(200);
    expect((await viaMcp({ ...send, idempotencyKey: "k-subject" })).isError).toBe(false);
    const entries = await (await getDb())
      .select({ subject: ledgerEntries.subject })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, seeded.project.id), eq(ledgerEntries.op, "send.message"), eq(ledgerEntries.subject, first.message_id)));
    expect(entries).toHaveLength(3);
  });

  it("keeps each API key's idempotency keys to itself: another key of the project with the same key and body sends anew", async () => {
    const args = { ...body("per credential"), subject: "Mine" };
    const first = await (await viaRest("shared-k", args)).json();
    const other = await seedKey(seeded.project.id, ["message_send"], "second agent");
    const second = await (await viaRest("shared-k", args, other.secret)).json();
    expect(second.message_id).not.toBe(first.message_id);
    expect(await messagesTo("Mine")).toHaveLength(2);
    expect((await (await viaRest("shared-k", args)).json()).message_id).toBe(first.message_id);
  });

  it("refuses an Idempotency-Key header that differs from the body's idempotency_key, naming the field", async () => {
    const res = await viaRest("header-key", { ...body("x"), idempotency_key: "body-key" });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe("validation_error");
    expect(error.details[0].field).toBe("idempotency_key");
    expect(await sentWith("header-key")).toBeUndefined();
  });

  it("leaves the key free when the call is refused, so the corrected retry goes through", async () => {
    const db = await getDb();
    await db.insert(mailListEntries).values({
      id: newId("mle"),
      projectId: seeded.project.id,
      mailboxId: from.id,
      direction: "send",
      type: "block",
      entry: "blocked.example",
      entryType: "domain",
    });
    const refused = await viaMcp({ to: ["someone@blocked.example"], subject: "Refused", text: "no", idempotencyKey: "k-refused" });
    expect(JSON.parse(refused.text)).toMatchObject({ code: "POLICY_DENIED", details: { field: "to.0", list: "send/block", entry: "blocked.example" } });
    expect(await sentWith("k-refused")).toBeUndefined();
    const fixed = await viaMcp({ ...body("fixed"), subject: "Refused", idempotencyKey: "k-refused" });
    expect(fixed.isError).toBe(false);
  });

  it("replays an approval_required answer with the same draft, and lets a key be used again once it expired", async () => {
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    try {
      const first = await viaMcp({ ...body("held"), subject: "Held", idempotencyKey: "k-held" });
      const again = await viaRest("k-held", { ...body("held"), subject: "Held" });
      expect(first.isError).toBe(true);
      expect(again.status).toBe(403);
      const error = JSON.parse(first.text);
      expect(error.code).toBe("approval_required");
      expect((await again.json()).error).toMatchObject({ code: "approval_required", message: error.message, fix: error.fix });
    } finally {
      await db.update(mailboxes).set({ sendPolicy: "direct" }).where(eq(mailboxes.id, from.id));
    }
    await db.update(idempotencyKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(idempotencyKeys.key, "k-body"));
    const reused = await viaRest("k-body", body("a new send"));
    expect(reused.status).toBe(200);
    expect(await messagesTo("Once")).toHaveLength(2);
  });
});
