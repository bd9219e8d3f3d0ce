import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { mailAttachments, mailMessages, mailThreads, mailboxes } from "@/lib/db/schema/mail";

/**
 * The Mailboxes screens' own reads, which no tool has: unread counts and last activity per mailbox and the owner's
 * attachment download. Threads and messages come from lib/mail/threads and lib/mail/messages. Every statement filters by the
 * owner's project.
 */

/** Threads with an `unread` message shown in default lists, per mailbox. */
export async function unreadCounts(db: Executor, projectId: string, mailboxIds: string[]): Promise<Map<string, number>> {
  if (mailboxIds.length === 0) return new Map();
  const rows = await db
    .select({ mailboxId: mailThreads.mailboxId, n: sql<number>`count(*)::int` })
    .from(mailThreads)
    .where(
      and(
        eq(mailThreads.projectId, projectId),
        inArray(mailThreads.mailboxId, mailboxIds),
        isNotNull(mailThreads.visibleAt),
        sql`${mailThreads.labels} @> '["unread"]'::jsonb`,
      ),
    )
    .groupBy(mailThreads.mailboxId);
  return new Map(rows.map((r) => [r.mailboxId, r.n]));
}

/**
 * Each mailbox's newest mail in or out: its newest thread's last message, one backward step on the
 * (mailbox_id, last_message_at) index per mailbox. Read rather than kept on the mailbox row, whose update would lock
 * that row until every send or receipt commits, and so serialise them (bench/mail-send.ts).
 */
export async function lastActivity(db: Executor, projectId: string, mailboxIds: string[]): Promise<Map<string, Date>> {
  if (mailboxIds.length === 0) return new Map();
  const rows = await query<{ id: string; at: Date | null }>(
    db,
    sql`select b.id, (select max(t.last_message_at) from mail_threads t where t.project_id = ${projectId} and t.mailbox_id = b.id) as at
        from jsonb_array_elements_text(${JSON.stringify(mailboxIds)}::jsonb) as b(id)`,
  );
  return new Map(rows.filter((r) => r.at).map((r) => [r.id, new Date(r.at as Date)]));
}

/** An attachment of a live mailbox of the project (the one in the URL), for the owner's download route. */
export async function findOwnerAttachment(db: Executor, opts: { projectId: string; mailboxId: string; attachmentId: string }) {
  const [row] = await db
    .select({ name: mailAttachments.name, contentType: mailAttachments.contentType, blobKey: mailAttachments.blobKey, sizeBytes: mailAttachments.sizeBytes })
    .from(mailAttachments)
    .innerJoin(mailMessages, eq(mailMessages.id, mailAttachments.messageId))
    .innerJoin(mailboxes, eq(mailboxes.id, mailMessages.mailboxId))
    .where(
      and(
        eq(mailAttachments.id, opts.attachmentId),
        eq(mailAttachments.projectId, opts.projectId),
        eq(mailMessages.mailboxId, opts.mailboxId),
        isNull(mailboxes.deletedAt),
      ),
    );
  return row ?? null;
}

/**
 * Which of these messages came from another mailbox of this instance (no SMTP hop, so no SPF/DKIM/DMARC to show):
 * the tools' view leaves that detail out.
 */
export async function localDeliveries(db: Executor, projectId: string, messageIds: string[]): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const rows = await db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), inArray(mailMessages.id, messageIds), sql`(${mailMessages.authentication} ->> 'local')::boolean`));
  return new Set(rows.map((r) => r.id));
}
