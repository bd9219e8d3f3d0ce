import { sql } from "drizzle-orm";
import { bigint, customType, index, integer, json, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { projects } from "./projects";

/** Raw bytes: postgres.js returns a Buffer, PGlite a Uint8Array; both are Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

export const sourceTypes = ["webhook", "email"] as const;
export type SourceType = (typeof sourceTypes)[number];
/** `standard_webhooks` covers every sender that signs through Svix (webhook-id / webhook-timestamp / webhook-signature, or their svix-* names). */
export const verifications = ["stripe", "github", "hmac_sha256", "standard_webhooks", "none"] as const;
export type Verification = (typeof verifications)[number];

/** Where events come from. Removal is a soft delete so events keep their source's history; the URL dies at once. */
export const sources = pgTable(
  "sources",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** Unique among the project's active sources; `brynth` is reserved for Brynth's own events. */
    name: text("name").notNull(),
    type: text("type").$type<SourceType>().notNull(),
    verification: text("verification").$type<Verification>().notNull(),
    /** The signing secret, encrypted with encryptSecret; never shown again after creation. */
    secretEnc: text("secret_enc"),
    /** After a rotation the previous secret keeps verifying until `previous_secret_expires_at`. */
    previousSecretEnc: text("previous_secret_enc"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    /** hmac_sha256 only: the header carrying the signature (lower case). */
    signatureHeader: text("signature_header"),
    /** Header whose value identifies a delivery, so provider retries do not create a second event (lower case). */
    idHeader: text("id_header"),
    /** Dot path of the event type in a JSON body, e.g. `event.kind`; default `type`. */
    typeField: text("type_field"),
    /**
     * SHA-256 of the URL token. The token itself is derived from the id with signToken, so the URL can be listed
     * again without storing it, and a leaked database does not reveal working URLs.
     */
    tokenHash: text("token_hash").unique(),
    /** Email sources: the project address mail arrives at. */
    address: text("address"),
    createdBy: text("created_by"),
    removedAt: ts("removed_at"),
    ...timestamps,
  },
  (t) => [uniqueIndex("sources_active_name_idx").on(t.projectId, t.name).where(sql`removed_at is null`)],
);
export type Source = typeof sources.$inferSelect;

/**
 * Stored statuses. `failed` = nacked and waiting out its retry delay (claimable again at `available_at`);
 * a `claimed` row whose lease expired counts as `pending` (or `dead` after the last attempt) without any job
 * rewriting it: see lib/events/event-status.ts.
 */
export const eventStatuses = ["pending", "claimed", "done", "failed", "dead"] as const;
export type EventStatus = (typeof eventStatuses)[number];
/**
 * `external_untrusted`: from outside (a signed webhook, mail); `external_unverified`: from a webhook source with
 * `verification: none`, so anyone holding its URL could have sent it; `brynth`: written by Brynth itself.
 */
export const trustLabels = ["external_untrusted", "external_unverified", "brynth"] as const;
export type Trust = (typeof trustLabels)[number];

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** Null for Brynth's own events. */
    sourceId: text("source_id"),
    /** Source name at receipt (`brynth` for Brynth's own events). */
    source: text("source").notNull(),
    type: text("type").notNull(),
    status: text("status").$type<EventStatus>().notNull().default("pending"),
    trust: text("trust").$type<Trust>().notNull(),
    /** JSON bodies, as `json` (not jsonb): the exact text is kept, so the raw view shows what the sender sent. */
    payload: json("payload"),
    /** Bodies that are not JSON, byte for byte; `content_type` says what they are. */
    raw: bytea("raw"),
    contentType: text("content_type"),
    /** Body size in bytes: decides truncation in lists and signed URLs on claim. */
    payloadSize: integer("payload_size").notNull(),
    /** Only the headers that matter (event name, delivery id, content type, user agent), never signatures. */
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    /** Provider delivery id (Stripe event id, webhook-id…; GitHub: the signed body's SHA-256): a retry finds the first event. */
    dedupeKey: text("dedupe_key"),
    receivedAt: ts("received_at").notNull(),
    /** A `failed` event is claimable again from here on (nack delay). */
    availableAt: ts("available_at").notNull(),
    /** Claims since the last requeue; the nack after the 5th sends the event to `dead`. */
    attempts: integer("attempts").notNull().default(0),
    leaseToken: text("lease_token"),
    leaseExpiresAt: ts("lease_expires_at"),
    /** The current (or last) lease holder as holderOf writes it: key id, then the MCP session or agent identity that claimed. */
    claimedBy: text("claimed_by"),
    claimedAgent: text("claimed_agent"),
    claimedAt: ts("claimed_at"),
    result: jsonb("result"),
    lastError: text("last_error"),
    finishedAt: ts("finished_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // Claims, waits and pending counts touch only live rows: done and dead rows leave this index, so millions
    // of finished events do not slow them down.
    index("events_live_idx").on(t.projectId, t.receivedAt, t.id).where(sql`status in ('pending', 'failed', 'claimed')`),
    // Waits and lists filtered by source. Their statements are prepared, and once Postgres switches to a generic
    // plan it cannot tell a quiet source from a busy one: without this index it walks every live event of the
    // project to find a few of a rare source (measured: 35 ms per inbox_wait check behind 20,000 pending events).
    index("events_live_source_idx").on(t.projectId, t.source, t.receivedAt, t.id).where(sql`status in ('pending', 'failed', 'claimed')`),
    // Finished events only, as the live ones have the indexes above. Covering every status, it also matched an
    // ack's `id = $1 and status = 'claimed'`, and when the statistics said nothing was claimed Postgres chose it over
    // the primary key and walked every claimed entry, dead ones included, on each ack (event-plans.test.ts).
    index("events_status_idx").on(t.projectId, t.status, t.receivedAt, t.id).where(sql`status in ('done', 'dead')`),
    index("events_received_idx").on(t.projectId, t.receivedAt, t.id),
    index("events_source_idx").on(t.projectId, t.source, t.receivedAt, t.id),
    // Per source: one removed and added again under its name is a new source (new id, URL and secret), whose
    // deliveries are its own. Brynth's own events have no source id (hence the coalesce).
    uniqueIndex("events_dedupe_idx").on(t.projectId, t.source, sql`coalesce(source_id, '')`, t.dedupeKey),
  ],
);
export type EventRow = typeof events.$inferSelect;

/** Claim history: who claimed when, and how the attempt ended (acked, nacked with its reason, lease expired). */
export const eventAttempts = pgTable(
  "event_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    keyId: text("key_id"),
    agent: text("agent"),
    claimedAt: ts("claimed_at").notNull(),
    leaseExpiresAt: ts("lease_expires_at").notNull(),
    /** null while the lease runs; then `acked`, `nacked`, `dead` or `expired`. */
    outcome: text("outcome"),
    reason: text("reason"),
    finishedAt: ts("finished_at"),
  },
  (t) => [index("event_attempts_event_idx").on(t.eventId, t.id)],
);
export type EventAttempt = typeof eventAttempts.$inferSelect;

/** `rate_limited`: over SOURCE_DELIVERIES_PER_MINUTE (delivery-rate-limit.ts), answered 429 so the sender retries. */
export const refusalReasons = ["bad_signature", "unknown_source", "rate_limited"] as const;
export type RefusalReason = (typeof refusalReasons)[number];

/**
 * Webhook deliveries the intake refused, counted per source, reason and hour: a counter, not a row per delivery,
 * so a sender hammering a URL with bad signatures grows one row an hour, not one per request. `unknown_source` is a
 * URL whose source was removed (its token hash stays on the row); a token that never belonged to a source cannot be
 * tied to a project and is not recorded.
 */
export const intakeRefusals = pgTable(
  "intake_refusals",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    sourceId: text("source_id").notNull(),
    /** The source name when the delivery came, as events keep it. */
    source: text("source").notNull(),
    reason: text("reason").$type<RefusalReason>().notNull(),
    /** The start of the UTC hour these refusals fell in. */
    hour: ts("hour").notNull(),
    count: integer("count").notNull(),
    lastAt: ts("last_at").notNull(),
    /** Why the last one was refused, as the sender was told (never the body or a signature). */
    lastDetail: text("last_detail"),
  },
  (t) => [uniqueIndex("intake_refusals_bucket_idx").on(t.projectId, t.sourceId, t.reason, t.hour), index("intake_refusals_hour_idx").on(t.projectId, t.hour)],
);
export type IntakeRefusal = typeof intakeRefusals.$inferSelect;
