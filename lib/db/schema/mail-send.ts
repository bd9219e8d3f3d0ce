import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { mailboxes, mailMessages } from "./mail";
import { projects } from "./projects";

/**
 * Sending (mailboxes spec "Messages" and "Drafts", design D7/D8): one outbound message per send, its deliveries
 * (one per local recipient mailbox, one relay SMTP transaction for every outside recipient), and drafts, which also
 * hold a send that waits for the owner's approval or for its scheduled time.
 */

export const deliveryRoutes = ["local", "relay"] as const;
/**
 * `queued` → `sending` → `sent`, or `failed` (refused or attempts used up), later possibly `bounced` (a DSN);
 * `unknown`: the relay dropped the connection after the body went out, so it may have the message — never retried
 * blindly, the owner resolves it (mark sent, resend, mark failed).
 */
export const deliveryStatuses = ["queued", "sending", "sent", "failed", "bounced", "unknown"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const mailDeliveries = pgTable(
  "mail_deliveries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    messageId: text("message_id")
      .notNull()
      .references(() => mailMessages.id, { onDelete: "cascade" }),
    route: text("route").$type<(typeof deliveryRoutes)[number]>().notNull(),
    /** Lower-case envelope recipients (RCPT TO) of this route: to, cc and bcc alike. */
    recipients: jsonb("recipients").$type<string[]>().notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** Recipients the relay (or local delivery) accepted, and those it refused, with the reply. */
    accepted: jsonb("accepted").$type<string[]>().notNull().default([]),
    rejected: jsonb("rejected").$type<Array<{ recipient: string; response: string }>>().notNull().default([]),
    /** The final SMTP reply (or the local delivery's). */
    response: text("response"),
    lastError: text("last_error"),
    sentAt: ts("sent_at"),
    ...timestamps,
  },
  (t) => [
    index("mail_deliveries_message_idx").on(t.messageId),
    index("mail_deliveries_open_idx").on(t.projectId, t.status).where(sql`status in ('unknown', 'failed')`),
  ],
);
export type MailDelivery = typeof mailDeliveries.$inferSelect;

export const draftKinds = ["new", "reply", "forward"] as const;
export type DraftKind = (typeof draftKinds)[number];
/** Null: an ordinary draft. `scheduled` waits for send_at; `pending_approval` for the owner; the rest explain a stop. */
export const draftSendStatuses = ["scheduled", "sending", "failed", "pending_approval", "rejected"] as const;
export type DraftSendStatus = (typeof draftSendStatuses)[number];

export const mailDrafts = pgTable(
  "mail_drafts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    /** The key that wrote it; null for the owner's. */
    keyId: text("key_id"),
    agent: text("agent"),
    clientId: text("client_id"),
    kind: text("kind").$type<(typeof draftKinds)[number]>().notNull().default("new"),
    inReplyToMessageId: text("in_reply_to_message_id"),
    forwardOfMessageId: text("forward_of_message_id"),
    replyAll: boolean("reply_all").notNull().default(false),
    /** The thread a reply joins (the original's). */
    threadId: text("thread_id"),
    to: jsonb("to").$type<string[]>().notNull().default([]),
    cc: jsonb("cc").$type<string[]>().notNull().default([]),
    bcc: jsonb("bcc").$type<string[]>().notNull().default([]),
    replyTo: jsonb("reply_to").$type<string[]>().notNull().default([]),
    /** RFC Message-IDs without angle brackets: In-Reply-To is the last. */
    references: jsonb("references").$type<string[]>().notNull().default([]),
    inReplyTo: text("in_reply_to"),
    subject: text("subject"),
    text: text("text"),
    html: text("html"),
    /** The agent's extra headers, validated against the allow-list. */
    customHeaders: jsonb("custom_headers").$type<Record<string, string>>().notNull().default({}),
    labels: jsonb("labels").$type<string[]>().notNull().default([]),
    sendAt: ts("send_at"),
    sendStatus: text("send_status").$type<DraftSendStatus>(),
    sendReason: text("send_reason"),
    approvalRequestId: text("approval_request_id"),
    /** Raised by every change: a scheduled job or an approval made for an older version does nothing. */
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index("mail_drafts_mailbox_idx").on(t.mailboxId, t.updatedAt, t.id),
    index("mail_drafts_project_idx").on(t.projectId, t.updatedAt, t.id),
    uniqueIndex("mail_drafts_client_idx").on(t.projectId, t.mailboxId, t.clientId).where(sql`client_id is not null`),
    index("mail_drafts_request_idx").on(t.approvalRequestId).where(sql`approval_request_id is not null`),
    // The dashboard's badge counts the held drafts on every page: only those are read, not every draft.
    index("mail_drafts_pending_idx").on(t.projectId).where(sql`send_status = 'pending_approval'`),
  ],
);
export type MailDraft = typeof mailDrafts.$inferSelect;
