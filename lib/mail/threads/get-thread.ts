import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, type PageKey } from "@/lib/db/keyset";
import { mailMessages } from "@/lib/db/schema/mail";
import { contentRead, messagePage } from "@/lib/mail/messages/message-page";
import { messageView } from "@/lib/mail/messages/message-view";
import { findThread } from "@/lib/mail/lookup/find-thread";
import { threadView } from "@/lib/mail/threads/thread-view";

/**
 * A thread and one page of its messages with bodies (AgentMail's get_thread): pages walk from the newest message
 * back, and each page reads oldest → newest, as a conversation does. Every message of the thread is included,
 * whatever its category: the caller asked for this conversation. With `prefix`, each content field is cut to that
 * many characters and `content` holds each field as read with its full size in bytes (a budgeted MCP read).
 */
export async function getThread(
  db: Executor,
  opts: { actor: Actor; threadId: string; inboxId?: string; limit: number; page: PageKey | null; prefix?: number | null },
) {
  const thread = await findThread(db, opts.actor, opts.threadId, opts.inboxId);
  const m = mailMessages;
  const rows = await messagePage(db, {
    where: and(eq(m.projectId, opts.actor.projectId), eq(m.threadId, thread.id), opts.page ? keysetAfter(m.msgAt, m.id, opts.page, false) : undefined),
    ascending: false,
    limit: opts.limit,
    bodies: true,
    prefix: opts.prefix,
  });
  return {
    thread: threadView(thread),
    messages: rows.map((r) => ({ pageAt: r.pageAt, id: r.id, view: messageView(r, r.attachments), content: contentRead(r) })),
  };
}
