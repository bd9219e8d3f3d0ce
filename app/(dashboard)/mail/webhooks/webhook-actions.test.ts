import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { formErrors } from "@/lib/forms/form-errors";
import { lastAttempts, projectWebhooks } from "@/components/webhooks/owner-webhook-reads";
import {
  createWebhookDef,
  deleteWebhookDef,
  rotateWebhookSecretDef,
  setWebhookEnabledDef,
  updateWebhookDef,
  updateWebhookHeadersDef,
} from "@/components/webhooks/webhook-action-defs";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { type ActionContext, type ActionLedger, runOwnerAction } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { mailWebhookAttempts, mailWebhookDeliveries } from "@/lib/db/schema/mail-webhooks";
import { newId } from "@/lib/ids";
import { digest } from "@/lib/ledger/canonical";
import { listWebhookAttempts } from "@/lib/mail/webhooks/list-webhook-attempts";
import { webhookAttemptsPerHour } from "@/lib/mail/webhooks/webhook-attempts-per-hour";
import { seedProject } from "@/lib/testing/seed";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { editedFields } from "@/components/webhooks/edited-fields";

// The Webhooks screen's owner actions through the real action pipeline (runOwnerAction: parse, one transaction,
// the ledger entry), as its server actions run them minus the cookie lookup; and the screen's own reads.

async function owner(): Promise<OwnerContext> {
  const s = await seedProject({ name: "Hooks screen" });
  return { owner: s.owner, sessionId: "ses_test", project: s.project, projects: [s.project], actor: s.actor };
}
type Def<S extends z.ZodType, T> = { schema: S; run: (ctx: ActionContext, input: z.output<S>) => Promise<T>; ledger: ActionLedger<z.output<S>> };
const act = <S extends z.ZodType, T>(ctx: OwnerContext, d: Def<S, T>, input: z.input<S>) => runOwnerAction(ctx, d.schema, d.run, d.ledger, input);
const formNames = { url: "url", event_types: "eventTypes", inbox_ids: "inboxIds", eventTypes: "eventTypes", inboxIds: "inboxIds" };

describe("Webhooks screen actions", () => {
  it("creates with the secret once, edits, switches off and on, rotates, sets headers and deletes, each ledgered", async () => {
    const ctx = await owner();
    const made = await act(ctx, createWebhookDef, { url: "https://hooks.example.com/a", eventTypes: ["message.received"], inboxIds: [] });
    if (!made.ok) throw new Error(made.error);
    expect(made.data.secret).toMatch(/^whsec_/);
    const id = made.data.id;

    const edited = await act(ctx, updateWebhookDef, { webhookId: id, url: "https://hooks.example.com/b", eventTypes: ["message.sent"], inboxIds: [] });
    expect(edited).toEqual({ ok: true, data: { id, url: "https://hooks.example.com/b" } });
    expect(await act(ctx, setWebhookEnabledDef, { webhookId: id, enabled: false })).toEqual({ ok: true, data: { id, enabled: false } });
    const [off] = await projectWebhooks(await getDb(), ctx.project.id);
    expect(off).toMatchObject({ id, enabled: false, disabledReason: "disabled by the owner", eventTypes: ["message.sent"] });
    expect(await act(ctx, setWebhookEnabledDef, { webhookId: id, enabled: true })).toEqual({ ok: true, data: { id, enabled: true } });

    const beforeRotation = Date.now();
    const rotated = await act(ctx, rotateWebhookSecretDef, { webhookId: id });
    const afterRotation = Date.now();
    if (!rotated.ok) throw new Error(rotated.error);
    expect(rotated.data.secret).not.toBe(made.data.secret);
    // The overlap ends 24 h after the rotation: between the clock readings on either side of the call, plus 24 h.
    const overlapEnd = Date.parse(rotated.data.previousSecretUntil ?? "");
    expect(overlapEnd).toBeGreaterThanOrEqual(beforeRotation + 24 * 3600_000 - 1000);
    expect(overlapEnd).toBeLessThanOrEqual(afterRotation + 24 * 3600_000 + 1000);

    const headers = await act(ctx, updateWebhookHeadersDef, { webhookId: id, headers: { Authorization: "Bearer s3cret" }, removeHeaders: [] });
    expect(headers).toEqual({ ok: true, data: { names: ["Authorization"] } });
    const reserved = await act(ctx, updateWebhookHeadersDef, { webhookId: id, headers: { Host: "x" }, removeHeaders: [] });
    expect(reserved.ok).toBe(false);
    // Worded for the form's Name box, where the owner typed it.
    if (!reserved.ok) expect(reserved.fieldErrors).toEqual({ name: "Brynth sets this header on every delivery; choose another name." });
    const twoLines = await act(ctx, updateWebhookHeadersDef, { webhookId: id, headers: { "X-Token": "a\nb" }, removeHeaders: [] });
    expect(twoLines).toMatchObject({ ok: false, fieldErrors: { value: "Use one line: no line breaks or NUL characters." } });

    const db = await getDb();
    const entries = await db
      .select({ op: ledgerEntries.op, subject: ledgerEntries.subject, inputDigest: ledgerEntries.inputDigest })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, ctx.project.id), eq(ledgerEntries.subject, id)));
    expect(entries.map((e) => e.op)).toEqual(
      expect.arrayContaining([createWebhookDef.ledger.op, updateWebhookDef.ledger.op, rotateWebhookSecretDef.ledger.op, updateWebhookHeadersDef.ledger.op]),
    );
    // The header's value is a secret: the entry digests the names only.
    const headerEntry = entries.find((e) => e.op === updateWebhookHeadersDef.ledger.op);
    expect(headerEntry?.inputDigest).toBe(digest({ webhookId: id, headerNames: ["Authorization"], removeHeaders: [] }));

    expect(await act(ctx, deleteWebhookDef, { webhookId: id })).toEqual({ ok: true, data: { id, cancelled: 0 } });
    expect(await projectWebhooks(db, ctx.project.id)).toEqual([]);
  });

  it("an edit sends only what the owner changed: an agent's change to the other fields, made while the form was open, stays", async () => {
    const ctx = await owner();
    const made = await act(ctx, createWebhookDef, { url: "https://hooks.example.com/old", eventTypes: ["message.received"], inboxIds: [] });
    if (!made.ok) throw new Error(made.error);
    const shown = { url: "https://hooks.example.com/old", eventTypes: ["message.received"], inboxIds: [] };
    // The agent moves it and adds an event type (update_webhook) after the owner opened Edit.
    const db = await getDb();
    await db.transaction((tx) =>
      updateWebhook(tx, {
        actor: ctx.actor,
        webhookId: made.data.id,
        changes: { url: "https://hooks.example.com/new", eventTypes: ["message.received", "message.bounced"] },
      }),
    );
    // The owner only ticks message.sent. Before, the form sent all three fields and put the old URL back.
    const changes = editedFields(shown, { ...shown, eventTypes: ["message.received", "message.sent"] });
    expect(changes).toEqual({ eventTypes: ["message.received", "message.sent"] });
    expect(await act(ctx, updateWebhookDef, { webhookId: made.data.id, ...(changes as { eventTypes: ["message.received", "message.sent"] }) })).toMatchObject({
      ok: true,
    });
    const [row] = await projectWebhooks(db, ctx.project.id);
    expect(row).toMatchObject({ url: "https://hooks.example.com/new", eventTypes: ["message.received", "message.sent"] });
    expect(editedFields(shown, { ...shown, eventTypes: [...shown.eventTypes].reverse() })).toEqual({});
  });

  it("names the form's field for a bad URL, no event type and an unknown mailbox, and writes nothing", async () => {
    const ctx = await owner();
    const cases: Array<[z.input<typeof createWebhookDef.schema>, string]> = [
      [{ url: "http://example.com/hook", eventTypes: ["message.sent"], inboxIds: [] }, "url"],
      [{ url: "https://[::ffff:127.0.0.1]/", eventTypes: ["message.sent"], inboxIds: [] }, "url"],
      [{ url: "https://example.com/hook", eventTypes: [], inboxIds: [] }, "eventTypes"],
      [{ url: "https://example.com/hook", eventTypes: ["message.sent"], inboxIds: ["mbx_nope"] }, "inboxIds"],
    ];
    for (const [input, field] of cases) {
      const res = await act(ctx, createWebhookDef, input);
      expect(res.ok, JSON.stringify(input)).toBe(false);
      if (!res.ok) expect(Object.keys(formErrors(res, formNames))).toEqual([field]);
    }
    expect(await projectWebhooks(await getDb(), ctx.project.id)).toEqual([]);
    const missing = await act(ctx, rotateWebhookSecretDef, { webhookId: "whk_missing" });
    expect(missing).toMatchObject({ ok: false, error: expect.stringMatching(/not found/) });
  });

  it("reads the delivery log with its filters, the last attempt per webhook and attempts per hour", async () => {
    const ctx = await owner();
    const made = await act(ctx, createWebhookDef, { url: "https://hooks.example.com/log", eventTypes: ["message.sent", "message.bounced"], inboxIds: [] });
    if (!made.ok) throw new Error(made.error);
    const db = await getDb();
    const p = ctx.project.id;
    const webhookId = made.data.id;
    const deliveries = [
      { id: newId("wdl"), projectId: p, webhookId, eventId: newId("mev"), eventType: "message.sent", status: "delivered" as const },
      { id: newId("wdl"), projectId: p, webhookId, eventId: newId("mev"), eventType: "message.bounced", status: "pending" as const },
    ];
    await db.insert(mailWebhookDeliveries).values(deliveries);
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const [sent, bounced] = deliveries as [(typeof deliveries)[0], (typeof deliveries)[0]];
    await db.insert(mailWebhookAttempts).values([
      { id: newId("wat"), projectId: p, webhookId, deliveryId: bounced.id, ok: false, statusCode: 503, durationMs: 40, responseSnippet: "busy", at: at(180) },
      { id: newId("wat"), projectId: p, webhookId, deliveryId: bounced.id, ok: false, statusCode: null, durationMs: 10_000, error: "timed out", at: at(120) },
      { id: newId("wat"), projectId: p, webhookId, deliveryId: sent.id, ok: true, statusCode: 204, durationMs: 12, at: at(5) },
    ]);
    const list = (filter: Parameters<typeof listWebhookAttempts>[1]["filter"]) => listWebhookAttempts(db, { actor: ctx.actor, filter, limit: 10, after: null });

    expect((await list({})).map((r) => r.statusCode)).toEqual([204, null, 503]);
    expect((await list({ outcome: "failed" })).map((r) => r.error ?? r.responseSnippet)).toEqual(["timed out", "busy"]);
    expect((await list({ eventType: "message.sent" })).map((r) => r.deliveryStatus)).toEqual(["delivered"]);
    expect((await list({ since: at(60) })).map((r) => r.statusCode)).toEqual([204]);
    expect(await list({ webhookId: "whk_other" })).toEqual([]);
    // Another project's owner sees none of it.
    const other = await owner();
    expect(await listWebhookAttempts(db, { actor: other.actor, filter: {}, limit: 10, after: null })).toEqual([]);

    const last = await lastAttempts(db, p, [webhookId, "whk_none"]);
    expect(last.get(webhookId)).toMatchObject({ ok: true, statusCode: 204 });
    expect(last.has("whk_none")).toBe(false);
    const perHour = await webhookAttemptsPerHour(db, { projectId: p, hours: 24 });
    expect(perHour.reduce((n, h) => n + h.succeeded, 0)).toBe(1);
    expect(perHour.reduce((n, h) => n + h.failed, 0)).toBe(2);
    expect(perHour.every((h) => /^\d{4}-\d\d-\d\dT\d\d:00Z$/.test(h.hour))).toBe(true);
  });
});
