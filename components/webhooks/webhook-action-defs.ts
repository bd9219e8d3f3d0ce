import { z } from "zod";
import type { ActionContext, ActionLedger } from "@/lib/auth/owner-action";
import { AppError } from "@/lib/errors";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/mail/webhooks/delete-webhook";
import { rotateWebhookSecret } from "@/lib/mail/webhooks/rotate-secret";
import { resendDelivery } from "@/lib/mail/webhooks/resend-delivery";
import { sendTestEvent } from "@/lib/mail/webhooks/send-test-event";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { updateWebhookHeaders } from "@/lib/mail/webhooks/update-webhook-headers";
import { eventTypesField, inboxIdsField, removeHeadersField, webhookHeadersField, webhookUrlField } from "@/lib/mail/webhooks/webhook-fields";
import { MAX_WEBHOOK_HEADER_BYTES, webhookHeaderProblem } from "@/lib/mail/webhooks/webhook-headers";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { resendDeliveryRoute, sendTestEventRoute } from "@/lib/owner-api/webhook-deliveries";
import {
  createWebhookRoute,
  deleteWebhookRoute,
  rotateWebhookSecretRoute,
  updateWebhookHeadersRoute,
  updateWebhookRoute,
  webhookIdField,
} from "@/lib/owner-api/webhooks";

/**
 * The Webhooks screen's owner actions as data (schema, work, ledger op), so tests run them through the same
 * runOwnerAction the "use server" file wraps them in. Each mirrors an owner REST route and takes its op; the
 * field rules are the tools' own (webhook-fields.ts).
 */
interface Def<S extends z.ZodType, T> {
  schema: S;
  run: (ctx: ActionContext, input: z.output<S>) => Promise<T>;
  ledger: ActionLedger<z.output<S>>;
}
const def = <S extends z.ZodType, T>(d: Def<S, T>) => d;
const webhookId = z.object({ webhookId: webhookIdField });

/** New webhook (no id) or Edit (with one): the same form. The secret comes back only from a create. */
export const createWebhookDef = def({
  schema: z.object({ url: webhookUrlField, eventTypes: eventTypesField, inboxIds: inboxIdsField.optional() }),
  run: async (ctx, input) => {
    const { webhook } = await createWebhook(ctx.db, { actor: ctx.actor, webhook: { url: input.url, eventTypes: input.eventTypes, inboxIds: input.inboxIds } });
    ctx.subject = webhook.id;
    return { id: webhook.id, url: webhook.url, secret: openWebhookSecret(webhook) };
  },
  ledger: { op: routeOp(createWebhookRoute) },
});

/** Edit: only the fields the owner changed, so what an agent changed meanwhile in the others stays (as PATCH does). */
export const updateWebhookDef = def({
  schema: z.object({
    webhookId: webhookIdField,
    url: webhookUrlField.optional(),
    eventTypes: eventTypesField.optional(),
    inboxIds: inboxIdsField.optional(),
  }),
  run: async (ctx, { webhookId, ...changes }) => {
    ctx.subject = webhookId;
    const row = await updateWebhook(ctx.db, { actor: ctx.actor, webhookId, changes });
    return { id: row.id, url: row.url };
  },
  ledger: { op: routeOp(updateWebhookRoute) },
});

/** The status switch. */
export const setWebhookEnabledDef = def({
  schema: z.object({ webhookId: webhookIdField, enabled: z.boolean() }),
  run: async (ctx, input) => {
    ctx.subject = input.webhookId;
    const row = await updateWebhook(ctx.db, { actor: ctx.actor, webhookId: input.webhookId, changes: { enabled: input.enabled } });
    return { id: row.id, enabled: row.enabled };
  },
  ledger: { op: routeOp(updateWebhookRoute) },
});

/** Confirmed by typing the URL. */
export const deleteWebhookDef = def({
  schema: webhookId,
  run: async (ctx, input) => {
    ctx.subject = input.webhookId;
    const r = await deleteWebhook(ctx.db, { actor: ctx.actor, webhookId: input.webhookId });
    return { id: r.webhookId, cancelled: r.cancelled };
  },
  ledger: { op: routeOp(deleteWebhookRoute) },
});

export const rotateWebhookSecretDef = def({
  schema: webhookId,
  run: async (ctx, input) => {
    ctx.subject = input.webhookId;
    const r = await rotateWebhookSecret(ctx.db, { actor: ctx.actor, webhookId: input.webhookId });
    return { secret: r.secret, previousSecretUntil: r.previousSecretUntil?.toISOString() ?? null };
  },
  ledger: { op: routeOp(rotateWebhookSecretRoute) },
});

/**
 * The header the form adds, checked as webhookHeadersField checks it but worded for its two fields (name, value):
 * the REST rule names the header as the field, which a form with a Name box cannot show.
 */
function headerFormProblem(headers: Record<string, string>): AppError | null {
  const onField = (field: "name" | "value", message: string) => new AppError("validation_error", message, { details: { field, message } });
  for (const [name, value] of Object.entries(headers)) {
    if (!name.trim()) return onField("name", "Name the header.");
    if (name.length > 256) return onField("name", "Use at most 256 characters.");
    const nameProblem = webhookHeaderProblem(name);
    if (nameProblem?.startsWith("is reserved")) return onField("name", "Brynth sets this header on every delivery; choose another name.");
    if (nameProblem) return onField("name", "Use letters, digits and !#$%&'*+-.^_`|~ only, without spaces.");
    if (!value) return onField("value", "Enter the header's value.");
    if (/[\r\n\0]/.test(value)) return onField("value", "Use one line: no line breaks or NUL characters.");
    if (Buffer.byteLength(value) > MAX_WEBHOOK_HEADER_BYTES) return onField("value", `Use at most ${MAX_WEBHOOK_HEADER_BYTES.toLocaleString("en")} bytes.`);
  }
  return webhookHeadersField.safeParse(headers).success ? null : onField("name", "Check the header's name and value.");
}

/** Add one header or remove one; the screen never holds a value it did not just type. */
export const updateWebhookHeadersDef = def({
  schema: z.object({ webhookId: webhookIdField, headers: z.record(z.string().max(1000), z.string().max(100_000)), removeHeaders: removeHeadersField }),
  run: async (ctx, input) => {
    const problem = headerFormProblem(input.headers);
    if (problem) throw problem;
    ctx.subject = input.webhookId;
    // The form has one Name box: a header that does not fit is reported there.
    const r = await updateWebhookHeaders(ctx.db, {
      actor: ctx.actor,
      webhookId: input.webhookId,
      headers: input.headers,
      removeHeaders: input.removeHeaders,
      field: () => "name",
    });
    return { names: Object.keys(r.headers) };
  },
  // Header values are secrets: the entry digests their names only.
  ledger: {
    op: routeOp(updateWebhookHeadersRoute),
    input: (i) => ({ webhookId: i.webhookId, headerNames: Object.keys(i.headers), removeHeaders: i.removeHeaders }),
  },
});

/** "Send test event": its attempt shows in the delivery log a moment later. */
export const sendTestEventDef = def({
  schema: webhookId,
  run: async (ctx, input) => {
    ctx.subject = input.webhookId;
    const r = await sendTestEvent(ctx.db, { actor: ctx.actor, webhookId: input.webhookId });
    return { deliveryId: r.deliveryId };
  },
  ledger: { op: routeOp(sendTestEventRoute) },
});

/** "Resend" in the delivery log: the same event (same webhook-id) as a new delivery. */
export const resendDeliveryDef = def({
  schema: z.object({ deliveryId: z.string().regex(/^wdl_[A-Za-z0-9]{1,40}$/) }),
  run: async (ctx, input) => {
    ctx.subject = input.deliveryId;
    const r = await resendDelivery(ctx.db, { actor: ctx.actor, deliveryId: input.deliveryId });
    return { id: r.deliveryId };
  },
  ledger: { op: routeOp(resendDeliveryRoute) },
});
