import { getTableColumns, sql } from "drizzle-orm";
import { boolean, check, customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { mailDrafts } from "./mail-send";
import { projects } from "./projects";

/**
 * The one mail store (ARCHITECTURE §6) for both tool families: domains, mailboxes (every address is one; the
 * project address is the project's default mailbox), threads, messages and attachments, allow/block lists.
 */

/** Verdicts of SPF, DKIM and DMARC as computed here (never copied from an incoming Authentication-Results). */
export interface MailAuthVerdicts {
  spf: string;
  dkim: string;
  dmarc: string;
  /** Delivered between this instance's own mailboxes: no SMTP hop to authenticate. */
  local?: boolean;
  /** Domain of the first passing DKIM signature. */
  dkim_domain?: string | null;
  /** mailauth's Authentication-Results lines, for the dashboard. */
  details?: string;
}

export interface DnsCheck {
  checked_at: string;
  records: Array<{ kind: "MX" | "SPF" | "DKIM" | "DMARC"; ok: boolean; found: string[]; note: string }>;
}

export const mailDomains = pgTable(
  "mail_domains",
  {
    id: text("id").primaryKey(),
    /** Null for the instance's default domain (MAIL_DOMAIN), which every project shares; set for a custom domain. */
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** Lower-case ASCII. */
    domain: text("domain").notNull(),
    dkimSelector: text("dkim_selector").notNull(),
    /** PKCS#8 PEM, encrypted with encryptSecret. */
    dkimPrivateKeyEnc: text("dkim_private_key_enc").notNull(),
    /** Base64 SPKI DER: the `p=` of the DKIM TXT record. */
    dkimPublicKey: text("dkim_public_key").notNull(),
    /** Custom domains receive mail only once verified (their DKIM record is published); the default always does. */
    verifiedAt: ts("verified_at"),
    dnsCheck: jsonb("dns_check").$type<DnsCheck>(),
    ...timestamps,
  },
  (t) => [uniqueIndex("mail_domains_domain_idx").on(t.domain), index("mail_domains_project_idx").on(t.projectId)],
);
export type MailDomain = typeof mailDomains.$inferSelect;

export const mailboxStatuses = ["active", "disabled"] as const;
export const sendPolicies = ["direct", "approval", "read_only"] as const;

export const mailboxes = pgTable(
  "mailboxes",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    domainId: text("domain_id")
      .notNull()
      .references(() => mailDomains.id),
    localPart: text("local_part").notNull(),
    /** `local@domain` in lower case: the SMTP routing key, unique on the instance among live mailboxes. */
    address: text("address").notNull(),
    displayName: text("display_name"),
    /** The project address (spec: the email source's `address`); one per project. */
    isDefault: boolean("is_default").notNull().default(false),
    status: text("status").$type<(typeof mailboxStatuses)[number]>().notNull().default("active"),
    /** The creator's idempotency id (mailboxes spec: create_inbox `clientId`). */
    clientId: text("client_id"),
    metadata: jsonb("metadata").$type<Record<string, string | number | boolean>>().notNull().default({}),
    /** Owner-only (mailbox spec "Send policies"): `approval` holds sends for the owner, `read_only` refuses them. */
    sendPolicy: text("send_policy").$type<(typeof sendPolicies)[number]>().notNull().default("direct"),
    /** The key that created it over create_inbox; null for the owner's and the project address. */
    createdByKey: text("created_by_key"),
    deletedAt: ts("deleted_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("mailboxes_address_idx").on(t.address).where(sql`deleted_at is null`),
    uniqueIndex("mailboxes_default_idx").on(t.projectId).where(sql`is_default and deleted_at is null`),
    uniqueIndex("mailboxes_client_idx").on(t.projectId, t.clientId).where(sql`client_id is not null`),
    index("mailboxes_project_idx").on(t.projectId, t.createdAt),
  ],
);
export type Mailbox = typeof mailboxes.$inferSelect;

export const mailThreads = pgTable(
  "mail_threads",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    subject: text("subject"),
    /** The subject without Re:/Fwd:/AW:… prefixes, lower-cased: a reply must match it to join (design §2.3 5b). */
    baseSubject: text("base_subject"),
    messageCount: integer("message_count").notNull().default(0),
    lastMessageAt: ts("last_message_at").notNull(),
    lastMessageId: text("last_message_id"),
    /** The newest message's preview (≤ 200 characters). */
    preview: text("preview"),
    senders: jsonb("senders").$type<string[]>().notNull().default([]),
    recipients: jsonb("recipients").$type<string[]>().notNull().default([]),
    lastReceivedAt: ts("last_received_at"),
    lastSentAt: ts("last_sent_at"),
    sizeBytes: integer("size_bytes").notNull().default(0),
    attachmentCount: integer("attachment_count").notNull().default(0),
    /** The union of its messages' labels. */
    labels: jsonb("labels").$type<string[]>().notNull().default([]),
    /** The newest message that is not spam, blocked, unauthenticated or trash; null: hidden from default lists. */
    visibleAt: ts("visible_at"),
    ...timestamps,
  },
  (t) => [
    index("mail_threads_mailbox_idx").on(t.mailboxId, t.lastMessageAt, t.id),
    index("mail_threads_visible_idx").on(t.mailboxId, t.visibleAt, t.id).where(sql`visible_at is not null`),
    index("mail_threads_project_visible_idx").on(t.projectId, t.visibleAt, t.id).where(sql`visible_at is not null`),
    index("mail_threads_labels_idx").using("gin", t.labels),
  ],
);
export type MailThread = typeof mailThreads.$inferSelect;

export const messageDirections = ["inbound", "outbound"] as const;
/**
 * Inbound: `received`. Outbound: `queued` → `sending` → `sent`, or `failed` (attempts used up or refused), then
 * possibly `bounced` (a DSN came back); `unknown` when a relay may or may not have taken it (the owner resolves it);
 * `pending`/`cancelled` while a person decides (approvals).
 */
export const messageStatuses = ["received", "pending", "cancelled", "queued", "sending", "sent", "failed", "bounced", "unknown"] as const;
export type MessageStatus = (typeof messageStatuses)[number];
export const messageCategories = ["normal", "spam", "blocked", "unauthenticated"] as const;

/** Postgres full-text vector; written only by its generated-column expression. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const mailMessages = pgTable(
  "mail_messages",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    threadId: text("thread_id")
      .notNull()
      .references(() => mailThreads.id, { onDelete: "cascade" }),
    direction: text("direction").$type<(typeof messageDirections)[number]>().notNull(),
    status: text("status").$type<MessageStatus>().notNull(),
    /** The RFC 5322 Message-ID without angle brackets; ours are `msg_…@domain`. */
    rfcMessageId: text("rfc_message_id"),
    inReplyTo: text("in_reply_to"),
    references: jsonb("references").$type<string[]>().notNull().default([]),
    /** Our id of the message In-Reply-To names, when it is in this mailbox. */
    inReplyToMessageId: text("in_reply_to_message_id"),
    fromAddress: text("from_address"),
    fromName: text("from_name"),
    to: jsonb("to").$type<string[]>().notNull().default([]),
    cc: jsonb("cc").$type<string[]>().notNull().default([]),
    /** Outbound: the agent's extra headers (allow-listed, one line each), written after Brynth's own. */
    customHeaders: jsonb("custom_headers").$type<Record<string, string>>().notNull().default({}),
    /** Outbound: the draft it was sent from (send_draft, a schedule, an approval). */
    draftId: text("draft_id"),
    /** Outbound: that draft's `clientId`, so create_draft's retry after the send makes no second draft. */
    draftClientId: text("draft_client_id"),
    /** Outbound only: envelope recipients never written into a header. */
    bcc: jsonb("bcc").$type<string[]>().notNull().default([]),
    replyToAddresses: jsonb("reply_to_addresses").$type<string[]>().notNull().default([]),
    subject: text("subject"),
    text: text("text"),
    html: text("html"),
    /** The reply without its quoted history (email-reply-parser over text; a cut at the first quote container in html). */
    extractedText: text("extracted_text"),
    extractedHtml: text("extracted_html"),
    /** The first 200 characters of extracted_text, whitespace collapsed. */
    preview: text("preview"),
    /** `normal`, or why it is kept out of default lists: `spam`, `blocked`, `unauthenticated`. */
    category: text("category").$type<(typeof messageCategories)[number]>().notNull().default("normal"),
    /** The time lists sort by: received_at for inbound, the send time for outbound. */
    msgAt: ts("msg_at").notNull().defaultNow(),
    /**
     * Full-text search (design D9): subject A, the first 20,000 characters of the participants B, the first 100,000
     * of text C, all in NFC (searchWords normalizes the query the same way: mail from macOS is often decomposed).
     * Every part is cut: a tsvector holds at most 1 MB, and a 1.5 MB To header made a message no mailbox could
     * store (found by helper-119, migration 0039).
     */
    search: tsvector("search")
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('simple', normalize(coalesce(subject, ''), NFC)), 'A') || setweight(to_tsvector('simple', normalize(left(coalesce(from_address, '') || ' ' || coalesce(from_name, '') || ' ' || "to"::text || ' ' || cc::text, 20000), NFC)), 'B') || to_tsvector('simple', normalize(left(coalesce(text, ''), 100000), NFC))`,
      ),
    /** Outbound send state in the mailbox spec's words (`send_status`, `send_reason`). */
    sendStatus: text("send_status"),
    sendReason: text("send_reason"),
    /** Size of the raw message (inbound) or of the composed one once sent (outbound). */
    sizeBytes: integer("size_bytes").notNull().default(0),
    /** Inbound: the message exactly as received, in the blob store. */
    rawBlobKey: text("raw_blob_key"),
    /**
     * Brynth's own mail whose links only its recipient may hold (approval and channel-verification links): the body
     * as sent, encrypted and bound to the row, read only to compose it. `text` and `html` keep it with the links
     * withheld, so nothing an agent can read (the message, its search vector, previews, events) carries them.
     */
    sealedBodyEnc: text("sealed_body_enc"),
    /** Only the headers that matter (ids, list and auto-reply markers, date); never Authentication-Results. */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    authentication: jsonb("authentication").$type<MailAuthVerdicts>(),
    /** `Auto-Submitted` other than `no` (or a DSN): never auto-answered. */
    autoSubmitted: boolean("auto_submitted").notNull().default(false),
    /** A sender on a receive block list: kept, but produces no event. */
    blocked: boolean("blocked").notNull().default(false),
    /** The MIME structure could not be parsed completely: fields are what could be read. */
    parseError: text("parse_error"),
    labels: jsonb("labels").$type<string[]>().notNull().default([]),
    /** The `email.received` (or `email.bounced`) event this message produced. */
    eventId: text("event_id"),
    /** Outbound: the email_send call (or system sender) that made it. */
    batchId: text("batch_id"),
    /** Outbound: replies come back as `email.received` with `reply_to` set. */
    replyToInbox: boolean("reply_to_inbox").notNull().default(true),
    /** Outbound: counted toward the project's daily and monthly limits (system mail is not). */
    countsQuota: boolean("counts_quota").notNull().default(true),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Outbound: the relay's (or local delivery's) final answer. */
    deliveryResponse: text("delivery_response"),
    keyId: text("key_id"),
    agent: text("agent"),
    sentAt: ts("sent_at"),
    receivedAt: ts("received_at"),
    ...timestamps,
  },
  (t) => [
    index("mail_messages_outbound_idx").on(t.projectId, t.createdAt, t.id).where(sql`direction = 'outbound'`),
    // The Overview's "needs attention" counts, on every load: only the outbound mail that failed or may have.
    index("mail_messages_outbound_trouble_idx").on(t.projectId, t.status).where(sql`direction = 'outbound' and status in ('failed', 'unknown')`),
    index("mail_messages_thread_idx").on(t.threadId, t.createdAt),
    index("mail_messages_mailbox_idx").on(t.mailboxId, t.createdAt),
    index("mail_messages_rfc_idx").on(t.projectId, t.rfcMessageId),
    index("mail_messages_batch_idx").on(t.batchId),
    index("mail_messages_event_idx").on(t.eventId).where(sql`event_id is not null`),
    // Deleting a message unlinks its replies (forgetParents): without it, every delete read the project's messages.
    index("mail_messages_in_reply_to_idx").on(t.inReplyToMessageId).where(sql`in_reply_to_message_id is not null`),
    index("mail_messages_mailbox_at_idx").on(t.mailboxId, t.msgAt, t.id),
    index("mail_messages_project_at_idx").on(t.projectId, t.msgAt, t.id),
    // Search is per mailbox: GIN over (mailbox_id, search) (btree_gin, drizzle/0024) intersects the mailbox with the
    // query's words inside the index. On `search` alone, a quoted phrase rechecked the word order on the heap for every
    // message of the project holding both words, before the mailbox filter dropped most of them (44 ms → 15 ms at
    // 100k messages). Project-wide search uses the same index on its second column.
    index("mail_messages_mailbox_search_idx").using("gin", t.mailboxId, t.search),
    index("mail_messages_labels_idx").using("gin", t.labels),
    index("mail_messages_references_idx").using("gin", t.references),
    // Quarantine lists only what is held back: without it, a listing walks every normal message of the project.
    index("mail_messages_held_idx").on(t.projectId, t.msgAt, t.id).where(sql`category <> 'normal'`),
    index("mail_messages_draft_client_idx").on(t.projectId, t.mailboxId, t.draftClientId).where(sql`draft_client_id is not null`),
    // Deleting a message frees its blobs only when no other row points at them.
    index("mail_messages_raw_blob_idx").on(t.rawBlobKey).where(sql`raw_blob_key is not null`),
  ],
);
export type MailMessage = typeof mailMessages.$inferSelect;

export const mailAttachments = pgTable(
  "mail_attachments",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The message it belongs to, or (exactly one of the two) the draft. */
    messageId: text("message_id").references(() => mailMessages.id, { onDelete: "cascade" }),
    draftId: text("draft_id").references(() => mailDrafts.id, { onDelete: "cascade" }),
    /** A safe file name, unique within the message (`evt_…/name` for the event's copy). */
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    blobKey: text("blob_key").notNull(),
    contentId: text("content_id"),
    inline: boolean("inline").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("mail_attachments_message_idx").on(t.messageId),
    index("mail_attachments_draft_idx").on(t.draftId).where(sql`draft_id is not null`),
    index("mail_attachments_blob_idx").on(t.blobKey),
    check("mail_attachments_owner_check", sql`(message_id is null) <> (draft_id is null)`),
  ],
);
export type MailAttachment = typeof mailAttachments.$inferSelect;

/** One email_send call: its messages share it. `pending`/`cancelled` belong to the approval gate. */
export const mailBatches = pgTable(
  "mail_batches",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    status: text("status").$type<"queued" | "pending" | "cancelled">().notNull(),
    requestId: text("request_id"),
    keyId: text("key_id"),
    agent: text("agent"),
    recipients: integer("recipients").notNull(),
    ...timestamps,
  },
  (t) => [index("mail_batches_project_idx").on(t.projectId, t.createdAt)],
);
export type MailBatch = typeof mailBatches.$inferSelect;

/** Messages counted per project per period (`d:2026-09-01`, `m:2026-09`, UTC), raised by a guarded upsert. */
export const mailQuota = pgTable(
  "mail_quota",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    used: integer("used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.period] })],
);

export const relaySecurities = ["starttls", "tls", "none"] as const;
export type RelaySecurity = (typeof relaySecurities)[number];

/** A project's outbound SMTP relay (Mail settings screen); without one, SMTP_RELAY_URL applies. */
export const mailRelays = pgTable("mail_relays", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  host: text("host").notNull(),
  port: integer("port").notNull(),
  /** `starttls`: upgrade on 587/25 (required); `tls`: implicit TLS (465); `none`: plain (local relays only). */
  security: text("security").$type<RelaySecurity>().notNull(),
  username: text("username"),
  /** Encrypted with encryptSecret; never shown again. */
  passwordEnc: text("password_enc"),
  ...timestamps,
});
export type MailRelay = typeof mailRelays.$inferSelect;

/**
 * Allow/block lists (mailboxes spec). `mailbox_id` null: the project-wide list. `entry` is a lower-case address or
 * domain. `receive` filters senders of new inbound mail, `reply` senders of inbound replies to a thread the mailbox
 * already answered, `send` the recipients of outbound mail. The mailbox's own list wins over the project's.
 */
export const mailListEntries = pgTable(
  "mail_list_entries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id").references(() => mailboxes.id, { onDelete: "cascade" }),
    direction: text("direction").$type<"receive" | "send" | "reply">().notNull(),
    type: text("type").$type<"allow" | "block">().notNull(),
    entry: text("entry").notNull(),
    /** `email` (local@domain) or `domain` (matches the domain and its subdomains). */
    entryType: text("entry_type").$type<"email" | "domain">().notNull().default("email"),
    reason: text("reason"),
    /**
     * Written by Brynth, not by a caller (a bounced recipient's send block entry): delete_list_entry refuses it, so
     * an agent cannot mail a dead address again by removing the entry.
     */
    managed: boolean("managed").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("mail_list_entries_idx").on(t.projectId, sql`coalesce(mailbox_id, '')`, t.direction, t.type, t.entry),
    // A mailbox's deletion cascades to its entries: without it, each deleted mailbox read the project's every entry.
    index("mail_list_entries_mailbox_idx").on(t.mailboxId).where(sql`mailbox_id is not null`),
  ],
);
export type MailListEntry = typeof mailListEntries.$inferSelect;

/**
 * Every column of mail_messages but the search vector: selects that read messages use this, since the vector is
 * as large as the body and is only ever matched in SQL.
 */
const { search: _search, ...messageColumnsWithoutSearch } = getTableColumns(mailMessages);
export const messageColumns = messageColumnsWithoutSearch;
