import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailAttachments, mailMessages, mailThreads, mailboxes, messageColumns } from "@/lib/db/schema/mail";

/**
 * The Mailboxes screens' reads, until the thread and message domain functions (lib/mail/threads, lib/mail/messages)
 * land; every statement filters by the owner's project. Kept small and in one file so the switch is one import each.
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

export interface ThreadFilter {
  labels: string[];
  includeSpam: boolean;
  includeBlocked: boolean;
  includeUnauthenticated: boolean;
  includeTrash: boolean;
  from?: string;
  subject?: string;
  /** Full-text search over the thread's messages (websearch syntax, never an error). */
  q?: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The thread list of one mailbox, newest first, `limit` threads after `after`. */
export async function listOwnerThreads(db: Executor, opts: { actor: Actor; mailboxId: string; filter: ThreadFilter; after: PageKey | null; limit: number }) {
  const f = opts.filter;
  const hidden = f.includeSpam || f.includeBlocked || f.includeUnauthenticated || f.includeTrash;
  const where: (SQL | undefined)[] = [eq(mailThreads.projectId, opts.actor.projectId), eq(mailThreads.mailboxId, opts.mailboxId)];
  const shown: SQL[] = [];
  if (hidden) {
    const categories = [
      "normal",
      ...(f.includeSpam ? ["spam"] : []),
      ...(f.includeBlocked ? ["blocked"] : []),
      ...(f.includeUnauthenticated ? ["unauthenticated"] : []),
    ];
    shown.push(
      sql`m.category in (${sql.join(
        categories.map((c) => sql`${c}`),
        sql`, `,
      )})`,
    );
    if (!f.includeTrash) shown.push(sql`not m.labels @> '["trash"]'::jsonb`);
  } else where.push(isNotNull(mailThreads.visibleAt));
  if (f.q) shown.push(sql`m.search @@ websearch_to_tsquery('simple', ${f.q})`);
  if (shown.length) {
    where.push(
      sql`exists (select 1 from mail_messages m where m.thread_id = ${mailThreads.id} and m.project_id = ${opts.actor.projectId} and ${sql.join(shown, sql` and `)})`,
    );
  }
  if (f.labels.length) where.push(sql`${mailThreads.labels} @> ${JSON.stringify(f.labels)}::jsonb`);
  if (f.from) where.push(sql`exists (select 1 from jsonb_array_elements_text(${mailThreads.senders}) as e(v) where e.v ilike ${`%${likeEscape(f.from)}%`})`);
  if (f.subject) where.push(sql`${mailThreads.subject} ilike ${`%${likeEscape(f.subject)}%`}`);
  if (opts.after) where.push(keysetAfter(mailThreads.lastMessageAt, mailThreads.id, opts.after, false));
  return db
    .select({
      id: mailThreads.id,
      subject: mailThreads.subject,
      preview: mailThreads.preview,
      senders: mailThreads.senders,
      labels: mailThreads.labels,
      messageCount: mailThreads.messageCount,
      attachmentCount: mailThreads.attachmentCount,
      lastMessageAt: mailThreads.lastMessageAt,
      pageAt: keysetAt(mailThreads.lastMessageAt),
    })
    .from(mailThreads)
    .where(and(...where))
    .orderBy(...keysetOrder(mailThreads.lastMessageAt, mailThreads.id, false))
    .limit(opts.limit);
}
export type OwnerThreadRow = Awaited<ReturnType<typeof listOwnerThreads>>[number];

/** One thread of a mailbox with its messages (oldest first) and their attachments, or null. */
export async function getOwnerThread(db: Executor, opts: { actor: Actor; mailboxId: string; threadId: string }) {
  const [thread] = await db
    .select()
    .from(mailThreads)
    .where(and(eq(mailThreads.id, opts.threadId), eq(mailThreads.projectId, opts.actor.projectId), eq(mailThreads.mailboxId, opts.mailboxId)));
  if (!thread) return null;
  const messages = await db
    .select(messageColumns)
    .from(mailMessages)
    .where(and(eq(mailMessages.threadId, thread.id), eq(mailMessages.projectId, opts.actor.projectId)))
    .orderBy(asc(mailMessages.msgAt), asc(mailMessages.id));
  const attachments = messages.length
    ? await db
        .select()
        .from(mailAttachments)
        .where(
          and(
            eq(mailAttachments.projectId, opts.actor.projectId),
            inArray(
              mailAttachments.messageId,
              messages.map((m) => m.id),
            ),
          ),
        )
        .orderBy(asc(mailAttachments.name))
    : [];
  return { thread, messages: messages.map((m) => ({ ...m, attachments: attachments.filter((a) => a.messageId === m.id) })) };
}
export type OwnerThread = NonNullable<Awaited<ReturnType<typeof getOwnerThread>>>;

/** An attachment of a live mailbox of the project, for the owner's download route. */
export async function findOwnerAttachment(db: Executor, opts: { projectId: string; attachmentId: string }) {
  const [row] = await db
    .select({ name: mailAttachments.name, contentType: mailAttachments.contentType, blobKey: mailAttachments.blobKey, sizeBytes: mailAttachments.sizeBytes })
    .from(mailAttachments)
    .innerJoin(mailMessages, eq(mailMessages.id, mailAttachments.messageId))
    .innerJoin(mailboxes, eq(mailboxes.id, mailMessages.mailboxId))
    .where(and(eq(mailAttachments.id, opts.attachmentId), eq(mailAttachments.projectId, opts.projectId), isNull(mailboxes.deletedAt)));
  return row ?? null;
}
