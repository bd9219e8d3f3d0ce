import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { projects } from "./projects";

/**
 * Outbound webhooks for mail events (mailboxes spec "Webhooks", design D10/D11): an endpoint, the events it wants
 * and the mailboxes it watches. Agents see only the webhooks their own key created (`key_id`); the owner sees all.
 * The signing secret and the custom headers are secrets at rest (lib/crypto), never stored in the clear.
 */
export const mailWebhooks = pgTable(
  "mail_webhooks",
  {
    /** `whk_…` */
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The API key that created it; null when the owner did. */
    keyId: text("key_id"),
    /** The caller's own id for the webhook: creating twice with one `client_id` returns the first. */
    clientId: text("client_id"),
    url: text("url").notNull(),
    /** Event types delivered (`message.received`, `message.sent`, …). */
    eventTypes: jsonb("event_types").$type<string[]>().notNull(),
    /** Mailboxes watched; empty = every mailbox of the project. At most 10. */
    inboxIds: jsonb("inbox_ids").$type<string[]>().notNull().default([]),
    /** The `whsec_…` signing secret, encrypted. */
    secretEnc: text("secret_enc").notNull(),
    /** After a rotation the old secret still signs (a second signature) until `previous_secret_until`. */
    previousSecretEnc: text("previous_secret_enc"),
    previousSecretUntil: ts("previous_secret_until"),
    /** Custom headers sent with every delivery, as encrypted JSON `{name: value}`. */
    headersEnc: text("headers_enc"),
    enabled: boolean("enabled").notNull().default(true),
    /** Why it was disabled (`410 Gone`, `failing for 5 days`, or by whom); null while enabled. */
    disabledReason: text("disabled_reason"),
    /** Consecutive failed attempts, and when the run of failures began (sustained failure disables). */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    firstFailureAt: ts("first_failure_at"),
    /**
     * While the endpoint is failing (webhook-breaker.ts): until when the one request it is sent at a time holds the
     * turn. Null before its first such request.
     */
    probeUntil: ts("probe_until"),
    lastDeliveryAt: ts("last_delivery_at"),
    deletedAt: ts("deleted_at"),
    ...timestamps,
  },
  (t) => [
    index("mail_webhooks_project_idx").on(t.projectId, t.createdAt, t.id),
    uniqueIndex("mail_webhooks_client_idx").on(t.projectId, t.keyId, t.clientId).where(sql`client_id is not null`),
  ],
);
export type MailWebhook = typeof mailWebhooks.$inferSelect;

export const webhookDeliveryStatuses = ["pending", "delivered", "failed", "cancelled"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/**
 * One delivery of one event to one webhook (`wdl_…`): its current state, settled by each attempt. The event's
 * `mev_…` id is the `webhook-id` header, so a resend carries the same id and receivers can dedupe on it.
 */
export const mailWebhookDeliveries = pgTable(
  "mail_webhook_deliveries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => mailWebhooks.id, { onDelete: "cascade" }),
    /** The `mail_events` public id (`mev_…`). */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: ts("next_attempt_at"),
    deliveredAt: ts("delivered_at"),
    ...timestamps,
  },
  (t) => [
    index("mail_webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt, t.id),
    index("mail_webhook_deliveries_project_idx").on(t.projectId, t.createdAt),
  ],
);
export type MailWebhookDelivery = typeof mailWebhookDeliveries.$inferSelect;

/** Every HTTP attempt of a delivery, for the owner's delivery log and its chart of successes and failures per hour. */
export const mailWebhookAttempts = pgTable(
  "mail_webhook_attempts",
  {
    /** `wat_…` */
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => mailWebhooks.id, { onDelete: "cascade" }),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => mailWebhookDeliveries.id, { onDelete: "cascade" }),
    ok: boolean("ok").notNull(),
    /** The HTTP status, or null when no answer came (refused, timed out, blocked address). */
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    /** The first 1 KB of the answer's body. */
    responseSnippet: text("response_snippet"),
    error: text("error"),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [
    index("mail_webhook_attempts_webhook_idx").on(t.webhookId, t.at),
    index("mail_webhook_attempts_delivery_idx").on(t.deliveryId, t.at),
    index("mail_webhook_attempts_project_idx").on(t.projectId, t.at),
  ],
);
export type MailWebhookAttempt = typeof mailWebhookAttempts.$inferSelect;
