import { z } from "zod";
import { storableTime } from "@/lib/db/storable";
import { MAIL_EVENT_TYPES } from "@/lib/mail/events/event-types";
import { ownerListInput, ownerPageAfter, ownerPageOf } from "@/lib/mail/quarantine/owner-page";
import { attemptOutcomes, listWebhookAttempts } from "@/lib/mail/webhooks/list-webhook-attempts";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";
import { resendDelivery } from "@/lib/mail/webhooks/resend-delivery";
import { sendTestEvent } from "@/lib/mail/webhooks/send-test-event";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { webhookIdField } from "@/lib/owner-api/webhooks";

/** The owner's delivery log over REST: every attempt of every webhook, with the screen's filters. Owner-only. */

const ATTEMPTS = "owner_webhook_attempts_list";
// The format alone lets through times timestamptz cannot read (`0000-01-01T00:00:00Z`, or `9999-12-31T23:59:59-14:00`,
// which is year 10000), and the window's query failed on one as a 500.
const instant = z.iso
  .datetime({ offset: true })
  .refine((s) => storableTime(Date.parse(s)), "must lie between 0001-01-01 and 9999-12-31 (UTC)")
  .describe("An ISO 8601 time, e.g. 2026-12-01T00:00:00Z.");

export const listWebhookAttemptsRoute = defineOwnerRoute({
  name: ATTEMPTS,
  description:
    "Lists delivery attempts, newest first: time, HTTP status (null when no answer came), duration, the first 1 KB of the answer and the error, with the delivery and event each belongs to. Filter by `webhook_id`, `outcome`, `event_type` and the window `since`/`until`; pass `next_page_token` back as `page_token`.",
  input: ownerListInput({
    webhook_id: webhookIdField.optional(),
    outcome: z.enum(attemptOutcomes).optional(),
    event_type: z.enum(MAIL_EVENT_TYPES).optional(),
    since: instant.optional(),
    until: instant.optional(),
  }),
  output: z.object({
    attempts: z.array(
      z.object({
        id: z.string(),
        at: z.string(),
        ok: z.boolean(),
        status_code: z.number().int().nullable(),
        duration_ms: z.number().int(),
        response_snippet: z.string().nullable(),
        error: z.string().nullable(),
        webhook_id: z.string(),
        url: z.string(),
        delivery_id: z.string(),
        delivery_status: z.string().describe("The delivery's state now: pending (queued or retrying), delivered, failed or cancelled."),
        event_id: z.string().describe("The event's id, also the `webhook-id` header the receiver dedupes on."),
        event_type: z.string(),
      }),
    ),
    next_page_token: z.string().nullable(),
  }),
  rest: { method: "GET", path: "/owner/webhook-attempts" },
  handler: async (ctx, input) => {
    const after = ownerPageAfter(ATTEMPTS, ctx.actor, input);
    // An unknown webhook is a 404 rather than an empty log, as a misspelt id deserves.
    if (input.webhook_id) await findWebhook(ctx.db, { actor: ctx.actor, webhookId: input.webhook_id, withDeleted: true });
    const rows = await listWebhookAttempts(ctx.db, {
      actor: ctx.actor,
      filter: {
        webhookId: input.webhook_id,
        outcome: input.outcome,
        eventType: input.event_type,
        since: input.since ? new Date(input.since) : undefined,
        until: input.until ? new Date(input.until) : undefined,
      },
      limit: input.limit + 1,
      after,
    });
    const page = ownerPageOf(ATTEMPTS, ctx.actor, input, rows, (r) => ({ at: r.pageAt, id: r.id }));
    return {
      attempts: page.items.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        ok: r.ok,
        status_code: r.statusCode,
        duration_ms: r.durationMs,
        response_snippet: r.responseSnippet,
        error: r.error,
        webhook_id: r.webhookId,
        url: r.url,
        delivery_id: r.deliveryId,
        delivery_status: r.deliveryStatus,
        event_id: r.eventId,
        event_type: r.eventType,
      })),
      next_page_token: page.nextPageToken,
    };
  },
});

export const sendTestEventRoute = defineOwnerRoute({
  name: "owner_webhooks_send_test",
  description:
    "Queues a made-up event (`test: true`, id `mev_test_…`) of a type the webhook wants, delivered like a real one: signed, retried and logged. A disabled webhook may be tested.",
  input: z.object({ webhook_id: webhookIdField }).strict(),
  output: z.object({ delivery_id: z.string(), event_id: z.string(), event_type: z.string() }),
  rest: { method: "POST", path: "/owner/webhooks/{webhook_id}/test" },
  status: 202,
  op: "mail.webhook_test",
  handler: async (ctx, input) => {
    ctx.subject = input.webhook_id;
    const r = await sendTestEvent(ctx.db, { actor: ctx.actor, webhookId: input.webhook_id });
    return { delivery_id: r.deliveryId, event_id: r.eventId, event_type: r.eventType };
  },
});

export const resendDeliveryRoute = defineOwnerRoute({
  name: "owner_webhook_deliveries_resend",
  description:
    "Delivers a delivery's event again to its webhook, as a new delivery with attempts of its own and the same `webhook-id`, so a receiver that already took it can drop it. The webhook must be enabled, and the event still kept (7 days).",
  input: z.object({ delivery_id: z.string().regex(/^wdl_[A-Za-z0-9]{1,40}$/, "must be a delivery id, `wdl_…`") }).strict(),
  output: z.object({ delivery_id: z.string(), event_id: z.string() }),
  rest: { method: "POST", path: "/owner/webhook-deliveries/{delivery_id}/resend" },
  status: 202,
  op: "mail.webhook_resend",
  handler: async (ctx, input) => {
    ctx.subject = input.delivery_id;
    const r = await resendDelivery(ctx.db, { actor: ctx.actor, deliveryId: input.delivery_id });
    return { delivery_id: r.deliveryId, event_id: r.eventId };
  },
});
