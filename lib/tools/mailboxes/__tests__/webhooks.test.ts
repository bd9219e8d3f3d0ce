import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailWebhookDeliveries, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { listWebhooks } from "@/lib/mail/webhooks/list-webhooks";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { openWebhookHeaders } from "@/lib/mail/webhooks/webhook-headers";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { createWebhookTool } from "@/lib/tools/mailboxes/create-webhook";
import { deleteWebhookTool } from "@/lib/tools/mailboxes/delete-webhook";
import { getWebhookTool } from "@/lib/tools/mailboxes/get-webhook";
import { getWebhookHeadersTool } from "@/lib/tools/mailboxes/get-webhook-headers";
import { listWebhooksTool } from "@/lib/tools/mailboxes/list-webhooks";
import { updateWebhookTool } from "@/lib/tools/mailboxes/update-webhook";
import { updateWebhookHeadersTool } from "@/lib/tools/mailboxes/update-webhook-headers";
import { runTool } from "@/lib/tools/run-tool";
import { digest, textDigest } from "@/lib/ledger/canonical";
import { parseToolArgs } from "@/lib/tools/casing/tool-casing";
import { toolOp } from "@/lib/tools/define-tool";
import { actorOf, call, projectWithKey, refusal, refusedFields, restrictedKey } from "./inbox-test-helpers";

/** The seven webhook tools (mailboxes spec "Webhooks", design §1.4 and §4 C "Bad inputs and errors"). */

let p: Awaited<ReturnType<typeof projectWithKey>>;
let inbox: { inbox_id: string; email: string };
let second: { inbox_id: string; email: string };
const unique = () => `w${Math.random().toString(36).slice(2, 10)}`;
const URL_OK = "https://hooks.example.com/brynth";

/** Webhook rows of a project, deleted ones included: what a refused call must leave as it was. */
async function webhookRows(projectId: string) {
  return (await getDb()).select().from(mailWebhooks).where(eq(mailWebhooks.projectId, projectId)).orderBy(mailWebhooks.id);
}

const create = (request: Record<string, unknown>, actor = p.mcp, extra: Record<string, unknown> = {}) =>
  call(createWebhookTool, actor, { request: { url: URL_OK, event_types: ["message.received"], ...request }, ...extra });

beforeAll(async () => {
  p = await projectWithKey("Webhook tools");
  inbox = (await call(createInbox, p.mcp, { username: unique() })) as typeof inbox;
  second = (await call(createInbox, p.mcp, { username: unique() })) as typeof second;
});

describe("create_webhook", () => {
  it("creates a webhook with a whsec_ secret (24 bytes, sealed at rest), answers in snake_case and ledgers it", async () => {
    const out = await create({ inbox_ids: [inbox.email], client_id: "first" });
    expect(out).toEqual({
      webhook_id: expect.stringMatching(/^whk_/),
      url: URL_OK,
      event_types: ["message.received"],
      inbox_ids: [inbox.inbox_id],
      client_id: "first",
      enabled: true,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Buffer.from(out.secret.slice(6), "base64")).toHaveLength(24);
    const [row] = (await webhookRows(p.project.id)).filter((r) => r.id === out.webhook_id);
    expect(row.keyId).toBe(p.key.id);
    expect(row.secretEnc).not.toContain(out.secret.slice(6));
    expect((await lastLedgerEntry(p.project.id, "create.webhook")).subject).toBe(out.webhook_id);
    // get_webhook shows the same secret (as AgentMail does).
    expect((await call(getWebhookTool, p.mcp, { webhookId: out.webhook_id })).secret).toBe(out.secret);
  });

  it("a client_id used before returns the first webhook, and writes nothing", async () => {
    const first = await create({ client_id: "replayed" });
    const before = await webhookRows(p.project.id);
    const again = await create({ client_id: "replayed", url: "https://other.example.com/x", event_types: ["message.sent"] });
    expect(again).toEqual(first);
    expect(await webhookRows(p.project.id)).toEqual(before);
  });

  // The replay answered the deleted webhook as live and enabled while nothing was delivered (found by helper-109).
  it("a client_id whose webhook was deleted is CONFLICT, naming the field as the caller wrote it", async () => {
    const first = (await create({ client_id: "gone" })) as { webhook_id: string };
    await call(deleteWebhookTool, p.mcp, { webhookId: first.webhook_id });
    const before = await webhookRows(p.project.id);
    const err = await refusal(createWebhookTool, p.mcp, { request: { url: URL_OK, event_types: ["message.received"], client_id: "gone" } });
    expect(err).toMatchObject({ code: "CONFLICT", message: expect.stringContaining(`(${first.webhook_id}) was deleted`) });
    expect(await webhookRows(p.project.id)).toEqual(before);
  });

  it("without inbox_ids watches the inboxId argument if given, else every inbox; duplicate types collapse", async () => {
    const scoped = await create({ event_types: ["message.sent", "message.sent"] }, p.mcp, { inboxId: second.email });
    expect(scoped).toMatchObject({ inbox_ids: [second.inbox_id], event_types: ["message.sent"] });
    expect((await create({})).inbox_ids).toEqual([]);
  });

  it.each([
    "http://example.com/hook",
    "https://127.0.0.1/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://2130706433/",
    "https://localhost./",
    "https://user:pw@x.com/hook",
    "https://hooks.example.com:25/",
    "https://hooks.example.com:6379/",
    "not a url",
  ])("refuses %s with validation_error naming request.url, writing nothing", async (url) => {
    const before = await webhookRows(p.project.id);
    expect(await refusedFields(createWebhookTool, p.mcp, { request: { url, event_types: ["message.received"] } })).toEqual(["request.url"]);
    expect(await refusedFields(createWebhookTool, p.rest, { request: { url, event_types: ["message.received"] } })).toEqual(["request.url"]);
    expect(await webhookRows(p.project.id)).toEqual(before);
  });

  it("refuses empty and misspelt event types, naming request.event_types", async () => {
    expect(await refusedFields(createWebhookTool, p.mcp, { request: { url: URL_OK, event_types: [] } })).toEqual(["request.event_types"]);
    const misspelt = await refusal(createWebhookTool, p.mcp, { request: { url: URL_OK, event_types: ["message.recieved"] } });
    expect(misspelt.code).toBe("validation_error");
    expect((misspelt.details as Array<{ field: string }>)[0].field).toBe("request.event_types.0");
    expect(misspelt.message).toContain("message.received");
    expect(await refusedFields(createWebhookTool, p.mcp, { request: { url: URL_OK } })).toEqual(["request.event_types"]);
  });

  it("refuses 11 inbox ids and an inbox of another project, naming request.inbox_ids", async () => {
    const before = await webhookRows(p.project.id);
    const eleven = Array.from({ length: 11 }, () => inbox.inbox_id);
    expect(await refusedFields(createWebhookTool, p.mcp, { request: { url: URL_OK, event_types: ["message.sent"], inbox_ids: eleven } })).toEqual([
      "request.inbox_ids",
    ]);
    const other = await projectWithKey("Another project");
    const theirs = await call(createInbox, other.mcp, { username: unique() });
    for (const ref of [theirs.inbox_id, theirs.email, "mbx_missing"]) {
      const fields = await refusedFields(createWebhookTool, p.mcp, {
        request: { url: URL_OK, event_types: ["message.sent"], inbox_ids: [inbox.inbox_id, ref] },
      });
      expect(fields).toEqual(["request.inbox_ids.1"]);
    }
    expect(await webhookRows(p.project.id)).toEqual(before);
  });

  it("refuses camelCase keys inside request by name, saying request takes snake_case, over MCP and REST", async () => {
    for (const actor of [p.mcp, p.rest]) {
      const err = await refusal(createWebhookTool, actor, { request: { url: URL_OK, eventTypes: ["message.sent"], inboxIds: [] } });
      expect(err.code).toBe("validation_error");
      const fields = (err.details as Array<{ field: string }>).map((d) => d.field);
      expect(fields).toEqual(expect.arrayContaining(["request.event_types", "request.eventTypes", "request.inboxIds"]));
      expect(err.message).toContain("request takes the REST body in snake_case");
      expect(err.message).toContain("use event_types");
    }
    const unknown = await refusal(createWebhookTool, p.mcp, { request: { url: URL_OK, event_types: ["message.sent"], secret: "x" } });
    expect((unknown.details as Array<{ field: string }>).map((d) => d.field)).toEqual(["request.secret"]);
    expect(await refusedFields(createWebhookTool, p.mcp, { request: { url: URL_OK, event_types: ["message.sent"] }, bogus: 1 })).toEqual(["bogus"]);
  });

  it("caps a key at 20 live webhooks with QUOTA_EXCEEDED naming the limit; a deleted one frees its place", async () => {
    const q = await projectWithKey("Webhook cap");
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await create({}, q.mcp));
    const before = await webhookRows(q.project.id);
    const over = await refusal(createWebhookTool, q.mcp, { request: { url: URL_OK, event_types: ["message.sent"] } });
    expect(over.code).toBe("QUOTA_EXCEEDED");
    expect(over.message).toContain("at most 20 webhooks");
    expect(await webhookRows(q.project.id)).toEqual(before);
    // Another key of the project has its own 20.
    const other = await seedKey(q.project.id, ["webhook_create"]);
    expect((await create({}, actorOf(other.key, q.project.name, "mcp"))).webhook_id).toMatch(/^whk_/);
    await call(deleteWebhookTool, q.mcp, { webhookId: made[0].webhook_id });
    expect((await create({}, q.mcp)).webhook_id).toMatch(/^whk_/);
  });

  it("caps a project at 100 live webhooks whoever made them: a key under its own 20 is refused once the project has 100", async () => {
    const q = await seedProject({ name: "Webhook project cap" });
    const db = await getDb();
    for (let i = 0; i < 90; i++) await createWebhook(db, { actor: q.actor, webhook: { url: URL_OK, eventTypes: ["message.received"] } });
    const agent = actorOf(q.key, q.project.name, "mcp");
    for (let i = 0; i < 10; i++) await create({}, agent);
    const before = await webhookRows(q.project.id);
    // Before: a key counted only its own webhooks, so six keys of 20 took a project to 120.
    const other = actorOf((await seedKey(q.project.id, ["webhook_create"])).key, q.project.name, "mcp");
    const over = await refusal(createWebhookTool, other, { request: { url: URL_OK, event_types: ["message.sent"] } });
    expect(over).toMatchObject({ code: "QUOTA_EXCEEDED", message: "A project may have at most 100 webhooks; this one has 100." });
    expect(await webhookRows(q.project.id)).toEqual(before);
  }, 60_000);
});

describe("concurrent creates", () => {
  it("25 at once give exactly 20 webhooks, and 5 with one client_id give one", async () => {
    const q = await projectWithKey("Webhook race");
    const attempt = (request: Record<string, unknown>) =>
      runTool(createWebhookTool, q.mcp, { request: { url: URL_OK, event_types: ["message.received"], ...request } }, new AbortController().signal).then(
        (r) => ({ ok: true as const, id: (r.output as { webhook_id: string }).webhook_id }),
        (err) => ({ ok: false as const, code: (err as { code?: string }).code }),
      );
    const same = await Promise.all(Array.from({ length: 5 }, () => attempt({ client_id: "once" })));
    expect(new Set(same.map((r) => (r.ok ? r.id : r.code))).size).toBe(1);
    const many = await Promise.all(Array.from({ length: 25 }, () => attempt({})));
    expect(many.filter((r) => r.ok)).toHaveLength(19);
    expect(many.filter((r) => !r.ok).map((r) => (r.ok ? "" : r.code))).toEqual(Array(6).fill("QUOTA_EXCEEDED"));
    expect((await webhookRows(q.project.id)).filter((r) => !r.deletedAt)).toHaveLength(20);
  });
});

describe("reading and changing webhooks", () => {
  it("another key's webhook is NOT_FOUND, with the same text as a missing one, on every tool", async () => {
    const mine = await create({});
    const other = await seedKey(p.project.id, ["webhook_read", "webhook_update", "webhook_delete"]);
    const them = actorOf(other.key, p.project.name, "mcp");
    const missing = await refusal(getWebhookTool, them, { webhookId: "whk_missing" });
    const calls: Array<[Parameters<typeof call>[0], Record<string, unknown>]> = [
      [getWebhookTool, {}],
      [updateWebhookTool, { request: { enabled: false } }],
      [deleteWebhookTool, {}],
      [getWebhookHeadersTool, {}],
      [updateWebhookHeadersTool, { request: { headers: { "X-A": "1" } } }],
    ];
    const before = await webhookRows(p.project.id);
    for (const [tool, args] of calls) {
      const err = await refusal(tool, them, { webhookId: mine.webhook_id, ...args });
      expect(err.code).toBe("NOT_FOUND");
      expect(err.message.replace(mine.webhook_id, "ID")).toBe(missing.message.replace("whk_missing", "ID"));
    }
    expect(await webhookRows(p.project.id)).toEqual(before);
    expect((await call(listWebhooksTool, them, {})).webhooks).toEqual([]);
  });

  it("list_webhooks pages newest first, narrows by inboxId, and shows only the key's own", async () => {
    const q = await projectWithKey("Webhook list");
    const box = await call(createInbox, q.mcp, { username: unique() });
    const a = await create({}, q.mcp);
    const b = await create({ inbox_ids: [box.inbox_id] }, q.mcp);
    const c = await create({}, q.mcp);
    const page1 = await call(listWebhooksTool, q.mcp, { limit: 2 });
    expect(page1.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([c.webhook_id, b.webhook_id]);
    const page2 = await call(listWebhooksTool, q.mcp, { limit: 2, pageToken: page1.next_page_token });
    expect(page2).toMatchObject({ count: 1, next_page_token: null, webhooks: [{ webhook_id: a.webhook_id }] });
    const asc = await call(listWebhooksTool, q.rest, { ascending: true });
    expect(asc.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([a.webhook_id, b.webhook_id, c.webhook_id]);
    const byInbox = await call(listWebhooksTool, q.mcp, { inboxId: box.email });
    expect(byInbox.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([b.webhook_id]);
    // get_webhook with an inboxId the webhook does not watch: NOT_FOUND.
    expect((await refusal(getWebhookTool, q.mcp, { webhookId: a.webhook_id, inboxId: box.inbox_id })).code).toBe("NOT_FOUND");
    expect((await call(getWebhookTool, q.mcp, { webhookId: b.webhook_id, inboxId: box.inbox_id })).webhook_id).toBe(b.webhook_id);
  });

  it("update_webhook replaces event types and inboxes, re-checks the URL, and enabling clears the reason and failure count", async () => {
    const w = await create({ inbox_ids: [inbox.inbox_id] });
    const changed = await call(updateWebhookTool, p.mcp, {
      webhookId: w.webhook_id,
      request: { event_types: ["message.bounced", "domain.verified"], inbox_ids: [] },
    });
    expect(changed).toMatchObject({ event_types: ["message.bounced", "domain.verified"], inbox_ids: [], url: URL_OK, secret: w.secret });
    const before = await webhookRows(p.project.id);
    expect(await refusedFields(updateWebhookTool, p.mcp, { webhookId: w.webhook_id, request: { url: "https://10.0.0.5/x" } })).toEqual(["request.url"]);
    expect(await refusedFields(updateWebhookTool, p.rest, { webhook_id: w.webhook_id, request: { event_types: ["nope"] } })).toEqual(["request.event_types.0"]);
    expect(await refusedFields(updateWebhookTool, p.mcp, { webhookId: w.webhook_id, request: { eventTypes: ["message.sent"] } })).toEqual([
      "request.eventTypes",
    ]);
    expect(await webhookRows(p.project.id)).toEqual(before);
    const off = await call(updateWebhookTool, p.mcp, { webhookId: w.webhook_id, request: { enabled: false } });
    expect(off).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("disabled by key") });
    // As the delivery job leaves a failing endpoint.
    await (await getDb())
      .update(mailWebhooks)
      .set({ consecutiveFailures: 7, firstFailureAt: new Date(), disabledReason: "410 Gone" })
      .where(eq(mailWebhooks.id, w.webhook_id));
    const on = await call(updateWebhookTool, p.mcp, { webhookId: w.webhook_id, request: { enabled: true, url: "https://new.example.com/h" } });
    expect(on).toMatchObject({ enabled: true, disabled_reason: null, url: "https://new.example.com/h" });
    const [row] = (await webhookRows(p.project.id)).filter((r) => r.id === w.webhook_id);
    expect(row).toMatchObject({ consecutiveFailures: 0, firstFailureAt: null });
    expect((await lastLedgerEntry(p.project.id, "update.webhook")).subject).toBe(w.webhook_id);
  });

  it("delete_webhook is idempotent and cancels pending deliveries with their queued jobs", async () => {
    const w = await create({ event_types: ["message.received"] });
    const db = await getDb();
    const eventIds = await db.transaction(async (tx) => {
      const ids = [];
      for (let i = 0; i < 2; i++) {
        ids.push(
          await emitMailEvent(tx, {
            projectId: p.project.id,
            mailboxId: inbox.inbox_id,
            type: "message.received",
            messageId: null,
            threadId: null,
            summary: { from: "a@example.org", to: [inbox.email], subject: "s", preview: null, labels: [] },
          }),
        );
      }
      return ids;
    });
    const deliveries = await db.select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.webhookId, w.webhook_id));
    expect(deliveries.map((d) => d.eventId).sort()).toEqual([...eventIds].sort());
    const jobKeys = deliveries.map((d) => `whk:${d.id}`);
    const pendingJobs = async () => (await db.select().from(jobs).where(eq(jobs.kind, "mail.webhook"))).filter((j) => jobKeys.includes(j.dedupeKey ?? ""));
    expect(await pendingJobs()).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      expect(await call(deleteWebhookTool, p.mcp, { webhookId: w.webhook_id })).toEqual({ webhook_id: w.webhook_id, deleted: true });
    }
    const after = await db.select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.webhookId, w.webhook_id));
    expect(after.map((d) => d.status)).toEqual(["cancelled", "cancelled"]);
    expect(await pendingJobs()).toEqual([]);
    expect((await refusal(getWebhookTool, p.mcp, { webhookId: w.webhook_id })).code).toBe("NOT_FOUND");
    expect((await refusal(updateWebhookTool, p.mcp, { webhookId: w.webhook_id, request: { enabled: true } })).code).toBe("NOT_FOUND");
  });
});

describe("webhook headers", () => {
  it("sets, replaces in any case, removes (an absent name too) and seals the headers", async () => {
    const w = await create({});
    const set = await call(updateWebhookHeadersTool, p.mcp, {
      webhookId: w.webhook_id,
      request: { headers: { Authorization: "Bearer s3cret", "X-Team": "mail" } },
    });
    expect(set).toEqual({ webhook_id: w.webhook_id, headers: { Authorization: "Bearer s3cret", "X-Team": "mail" } });
    const next = await call(updateWebhookHeadersTool, p.rest, {
      webhook_id: w.webhook_id,
      request: { headers: { "x-team": "ops", "User-Agent": "mine" }, remove_headers: ["AUTHORIZATION", "absent"] },
    });
    expect(next.headers).toEqual({ "x-team": "ops", "User-Agent": "mine" });
    expect(await call(getWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id })).toEqual(next);
    const again = await call(updateWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id, request: { remove_headers: ["absent"] } });
    expect(again).toEqual(next);
    const [row] = (await webhookRows(p.project.id)).filter((r) => r.id === w.webhook_id);
    expect(row.headersEnc).not.toContain("ops");
    expect(openWebhookHeaders(row)).toEqual(next.headers);
  });

  // Found by helper-105: the key tools' entries digested the values, so anyone reading the ledger guessed a weak
  // token from the digest offline, while the owner routes' entries already digested the names only.
  it("ledgers the header names only, going in and coming back: no digest a value could be guessed from", async () => {
    const w = await create({});
    const args = { webhookId: w.webhook_id, request: { headers: { Authorization: "Bearer hunter2" } } };
    await call(updateWebhookHeadersTool, p.mcp, args);
    const set = await lastLedgerEntry(p.project.id, toolOp(updateWebhookHeadersTool));
    const parsed = parseToolArgs(updateWebhookHeadersTool, "mcp", args);
    expect(set.inputDigest).not.toBe(digest(parsed));
    expect(set.inputDigest).toBe(digest({ webhookId: w.webhook_id, request: { header_names: ["Authorization"], remove_headers: [] } }));
    const namesOnly = textDigest(JSON.stringify({ webhookId: w.webhook_id, headerNames: ["Authorization"] }));
    expect(set.outputDigest).toBe(namesOnly);
    await call(getWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id });
    expect((await lastLedgerEntry(p.project.id, toolOp(getWebhookHeadersTool))).outputDigest).toBe(namesOnly);
  });

  it("refuses reserved names, CR/LF, 2 KB values and a 21st header, naming request.headers.<name> and writing nothing", async () => {
    const w = await create({});
    const before = await webhookRows(p.project.id);
    const cases: Array<[Record<string, string>, string]> = [
      [{ "webhook-signature": "x" }, "request.headers.webhook-signature"],
      [{ Host: "evil.example" }, "request.headers.Host"],
      [{ "Content-Length": "1" }, "request.headers.Content-Length"],
      [{ "Transfer-Encoding": "chunked" }, "request.headers.Transfer-Encoding"],
      [{ "X-Inject": "a\r\nX-Evil: 1" }, "request.headers.X-Inject"],
      [{ "X-Big": "v".repeat(2048) }, "request.headers.X-Big"],
      [{ "Bad Name": "x" }, "request.headers.Bad Name"],
    ];
    for (const [headers, field] of cases) {
      expect(await refusedFields(updateWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id, request: { headers } })).toEqual([field]);
    }
    const twentyOne = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i + 1}`, "v"]));
    expect(await refusedFields(updateWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id, request: { headers: twentyOne } })).toEqual([
      "request.headers.X-H21",
    ]);
    expect(await refusedFields(updateWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id, request: { removeHeaders: ["x"] } })).toEqual([
      "request.removeHeaders",
    ]);
    expect(await webhookRows(p.project.id)).toEqual(before);
    // Twenty fit.
    const twenty = Object.fromEntries(Object.entries(twentyOne).slice(0, 20));
    expect(Object.keys((await call(updateWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id, request: { headers: twenty } })).headers)).toHaveLength(20);
  });

  it("keeps a webhook's headers within 8 KB in all, so every delivery fits a receiver's limit and get_webhook_headers fits MCP", async () => {
    const w = await create({});
    const kb = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-V${i}`, "v".repeat(1000)]));
    const eight = await call(updateWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id, request: { headers: kb(8) } });
    expect(Object.keys(eight.headers)).toHaveLength(8);
    const before = await webhookRows(p.project.id);
    const over = await refusal(updateWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id, request: { headers: { "X-More": "m".repeat(300) } } });
    expect(over).toMatchObject({ code: "validation_error" });
    expect(over.message).toMatch(/^request\.headers\.X-More: does not fit: .* at most 8192 bytes .* would make 8374$/);
    expect(await webhookRows(p.project.id)).toEqual(before);
    // Replacing a value with a shorter one, or removing, still works.
    const shorter = await call(updateWebhookHeadersTool, p.mcp, {
      webhookId: w.webhook_id,
      request: { headers: { "X-V0": "short" }, remove_headers: ["X-V1"] },
    });
    expect(Object.keys(shorter.headers)).toHaveLength(7);
    expect(JSON.stringify(await call(getWebhookHeadersTool, p.mcp, { webhookId: w.webhook_id })).length).toBeLessThan(19_000);
  });
});

describe("keys restricted to one inbox", () => {
  it("get their own inbox as inbox_ids; another inbox is NOT_FOUND as an argument and missing_permission in inbox_ids", async () => {
    const r = await restrictedKey(p.project.id, p.project.name, inbox.inbox_id);
    const made = await create({}, r.mcp);
    expect(made.inbox_ids).toEqual([inbox.inbox_id]);
    expect((await create({ inbox_ids: [inbox.email] }, r.mcp)).inbox_ids).toEqual([inbox.inbox_id]);
    const before = await webhookRows(p.project.id);
    expect((await refusal(createWebhookTool, r.mcp, { request: { url: URL_OK, event_types: ["message.sent"], inbox_ids: [second.inbox_id] } })).code).toBe(
      "missing_permission",
    );
    expect((await refusal(createWebhookTool, r.mcp, { inboxId: second.inbox_id, request: { url: URL_OK, event_types: ["message.sent"] } })).code).toBe(
      "NOT_FOUND",
    );
    expect((await refusal(updateWebhookTool, r.mcp, { webhookId: made.webhook_id, request: { inbox_ids: [second.inbox_id] } })).code).toBe(
      "missing_permission",
    );
    expect((await refusal(listWebhooksTool, r.mcp, { inboxId: second.inbox_id })).code).toBe("NOT_FOUND");
    expect(await webhookRows(p.project.id)).toEqual(before);
    const listed = await call(listWebhooksTool, r.mcp, {});
    expect(listed.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toContain(made.webhook_id);
    expect(listed.webhooks.every((w: { inbox_ids: string[] }) => w.inbox_ids.join() === inbox.inbox_id)).toBe(true);
  });
});

describe("the owner (domain functions the Webhooks screen uses)", () => {
  it("keeps a restricted key's webhook to the key's inbox when editing it: every inbox (an empty list) stays that one, another is refused", async () => {
    const r = await restrictedKey(p.project.id, p.project.name, inbox.inbox_id);
    const made = await create({}, r.mcp);
    const db = await getDb();
    // What the Edit form sends with the inbox picker left empty. Before: stored [], every inbox, for a key that may read one.
    const widened = await db.transaction((tx) => updateWebhook(tx, { actor: p.actor, webhookId: made.webhook_id, changes: { inboxIds: [] } }));
    expect(widened.inboxIds).toEqual([inbox.inbox_id]);
    await expect(
      db.transaction((tx) => updateWebhook(tx, { actor: p.actor, webhookId: made.webhook_id, changes: { inboxIds: [second.inbox_id] } })),
    ).rejects.toMatchObject({
      code: "missing_permission",
      message: `The webhook's key is restricted to one inbox, so the webhook may not watch ${second.inbox_id}.`,
    });
    expect((await call(getWebhookTool, r.mcp, { webhookId: made.webhook_id })).inbox_ids).toEqual([inbox.inbox_id]);
  });

  it("sees every webhook of the project, agents' included, and creates its own with no key", async () => {
    const q = await seedProject({ name: "Owner webhooks" });
    const agent = actorOf(q.key, q.project.name, "mcp");
    const theirs = await create({}, agent);
    const db = await getDb();
    const { webhook } = await db.transaction((tx) =>
      createWebhook(tx, { actor: q.actor, webhook: { url: URL_OK, eventTypes: ["domain.verified"], clientId: "owner" } }),
    );
    expect(webhook.keyId).toBeNull();
    const { rows } = await listWebhooks(db, { actor: q.actor, limit: 10, after: null });
    expect(rows.map((r) => r.id).sort()).toEqual([theirs.webhook_id, webhook.id].sort());
    // The agent does not see the owner's.
    expect((await call(listWebhooksTool, agent, {})).webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([theirs.webhook_id]);
    const [{ n }] = await db
      .select({ n: count() })
      .from(mailWebhooks)
      .where(and(eq(mailWebhooks.projectId, q.project.id)));
    expect(n).toBe(2);
  });
});

describe("over HTTP: the MCP SDK client and REST give the same results", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => server.close());

  it("create → list → get → update → headers → delete, over MCP and over REST (POST /webhooks with the request as body)", async () => {
    const q = await projectWithKey("Webhooks over HTTP");
    const box = await call(createInbox, q.mcp, { username: unique() });
    const auth = { authorization: `Bearer ${q.secret}`, "content-type": "application/json" };
    const api = `${server.url}/api/v1`;
    const { client } = await connectMcp(server.url, q.secret);
    try {
      const viaMcp = await client.callTool({
        name: "create_webhook",
        arguments: { inboxId: box.inbox_id, request: { url: URL_OK, event_types: ["message.received"], client_id: "mcp" } },
      });
      expect(viaMcp.isError).toBeFalsy();
      const made = viaMcp.structuredContent as Record<string, unknown>;
      const restRes = await fetch(`${api}/webhooks?inbox_id=${box.email}`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url: URL_OK, event_types: ["message.received"], client_id: "rest" }),
      });
      expect(restRes.status).toBe(200);
      const viaRest = await restRes.json();
      expect(Object.keys(viaRest).sort()).toEqual(Object.keys(made).sort());
      expect(viaRest).toMatchObject({ inbox_ids: [box.inbox_id], client_id: "rest", secret: expect.stringMatching(/^whsec_/) });

      const listed = await client.callTool({ name: "list_webhooks", arguments: { inboxId: box.inbox_id } });
      const listedRest = await (await fetch(`${api}/webhooks?inbox_id=${box.inbox_id}`, { headers: auth })).json();
      expect(listedRest).toEqual(listed.structuredContent);
      expect(listedRest.count).toBe(2);

      const got = await client.callTool({ name: "get_webhook", arguments: { webhookId: made.webhook_id } });
      expect(await (await fetch(`${api}/webhooks/${made.webhook_id}`, { headers: auth })).json()).toEqual(got.structuredContent);

      const patch = await fetch(`${api}/webhooks/${made.webhook_id}`, {
        method: "PATCH",
        headers: auth,
        body: JSON.stringify({ event_types: ["message.sent"] }),
      });
      expect(await patch.json()).toMatchObject({ event_types: ["message.sent"] });
      const updated = await client.callTool({ name: "update_webhook", arguments: { webhookId: made.webhook_id, request: { enabled: false } } });
      expect(updated.structuredContent).toMatchObject({ event_types: ["message.sent"], enabled: false });

      const headersRes = await fetch(`${api}/webhooks/${made.webhook_id}/headers`, {
        method: "PATCH",
        headers: auth,
        body: JSON.stringify({ headers: { Authorization: "Bearer x" } }),
      });
      expect(await headersRes.json()).toEqual({ webhook_id: made.webhook_id, headers: { Authorization: "Bearer x" } });
      const headers = await client.callTool({ name: "get_webhook_headers", arguments: { webhookId: made.webhook_id } });
      expect(headers.structuredContent).toEqual({ webhook_id: made.webhook_id, headers: { Authorization: "Bearer x" } });

      // Bad input over REST names the field as the caller wrote it, under request.
      const bad = await fetch(`${api}/webhooks`, { method: "POST", headers: auth, body: JSON.stringify({ url: "https://127.0.0.1/", eventTypes: [] }) });
      expect(bad.status).toBe(400);
      const badBody = await bad.json();
      expect(badBody.error.code).toBe("validation_error");
      expect(badBody.error.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(["request.url", "request.event_types", "request.eventTypes"]),
      );
      const badMcp = await client.callTool({ name: "create_webhook", arguments: { request: { url: "http://example.com", event_types: ["message.sent"] } } });
      expect(badMcp.isError).toBe(true);
      expect(JSON.parse((badMcp.content as Array<{ text: string }>)[0].text)).toMatchObject({
        code: "validation_error",
        message: expect.stringContaining("request.url"),
      });

      const other = await seedKey(q.project.id, ["webhook_read"]);
      const foreign = await fetch(`${api}/webhooks/${made.webhook_id}`, { headers: { authorization: `Bearer ${other.secret}` } });
      expect(foreign.status).toBe(404);
      expect((await foreign.json()).error.code).toBe("NOT_FOUND");

      for (let i = 0; i < 2; i++) {
        const del = await fetch(`${api}/webhooks/${made.webhook_id}`, { method: "DELETE", headers: auth });
        expect(await del.json()).toEqual({ webhook_id: made.webhook_id, deleted: true });
      }
      const deleted = await client.callTool({ name: "delete_webhook", arguments: { webhookId: made.webhook_id } });
      expect(deleted.structuredContent).toEqual({ webhook_id: made.webhook_id, deleted: true });
      const gone = await client.callTool({ name: "get_webhook", arguments: { webhookId: made.webhook_id } });
      expect(gone.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
