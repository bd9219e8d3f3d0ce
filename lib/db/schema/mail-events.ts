import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "../columns";
import { projects } from "./projects";

/**
 * The mail outbox (design D10): one row per change to mail, written in the change's own transaction. Webhook
 * deliveries and the live stream read it. Bodies are never copied here.
 *
 * Stream order is `(xid, seq)`: the writing transaction's id, then the insert order within it. `seq` alone is
 * taken at insert but becomes visible at commit, so a reader after `seq > n` skips a row whose transaction commits
 * after a later one's. A transaction with an id below the snapshot's xmin has ended, so rows below it never gain a
 * neighbour: readers take only those (lib/http/stream/statements.ts), and a position once passed stays passed.
 */
export const mailEvents = pgTable(
  "mail_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    /** The writing transaction's id (xid8 as bigint), set by the database in that transaction. */
    xid: bigint("xid", { mode: "number" }).notNull().default(sql`(pg_current_xact_id()::text::bigint)`),
    /** The public id (`mev_…`): webhook-id of deliveries, `event_id` on the stream. */
    id: text("id").notNull().unique(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id"),
    type: text("type").notNull(),
    messageId: text("message_id"),
    threadId: text("thread_id"),
    draftId: text("draft_id"),
    summary: jsonb("summary").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("mail_events_order_idx").on(t.xid, t.seq),
    index("mail_events_project_order_idx").on(t.projectId, t.xid, t.seq),
    index("mail_events_created_idx").on(t.createdAt),
  ],
);
export type MailEvent = typeof mailEvents.$inferSelect;

/**
 * Mail refused during the SMTP conversation, for the owner's "why did my mail not arrive" (Rejected mail screen).
 * Only refusals that name one of a project's addresses or domains are kept: they are the owner's to see.
 */
export const mailRejections = pgTable(
  "mail_rejections",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id"),
    remoteIp: text("remote_ip"),
    helo: text("helo"),
    mailFrom: text("mail_from"),
    rcpt: text("rcpt").notNull(),
    smtpCode: text("smtp_code").notNull(),
    reason: text("reason").notNull(),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [
    index("mail_rejections_project_idx").on(t.projectId, t.at, t.id),
    // The 30-day purge, every 30 s on every instance: without it each pass read every refusal kept.
    index("mail_rejections_at_idx").on(t.at),
  ],
);
export type MailRejection = typeof mailRejections.$inferSelect;
