import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailMessages, type MailAttachment } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { findThread } from "@/lib/mail/lookup/find-thread";

export interface FoundAttachment {
  attachment: MailAttachment;
  messageId: string;
  threadId: string;
  mailboxId: string;
}

const attachmentNotFound = (id: string, where: string) =>
  new AppError("NOT_FOUND", `Attachment ${id} was not found in this ${where}.`, {
    fix: `Use an attachment_id listed on a message of this ${where} (get_thread or get_message).`,
  });

/**
 * An attachment of a message of the given thread (get_attachment). One of another thread is NOT_FOUND even when the
 * caller could read it there: the spec binds the attachment to the thread named.
 */
export async function findThreadAttachment(
  db: Executor,
  o: { actor: Actor; threadId: string; attachmentId: string; inboxId?: string },
): Promise<FoundAttachment> {
  const thread = await findThread(db, o.actor, o.threadId, o.inboxId);
  const [row] = await db
    .select({ attachment: mailAttachments, messageId: mailMessages.id })
    .from(mailAttachments)
    .innerJoin(mailMessages, and(eq(mailMessages.projectId, mailAttachments.projectId), eq(mailMessages.id, mailAttachments.messageId)))
    .where(and(eq(mailAttachments.projectId, o.actor.projectId), eq(mailAttachments.id, o.attachmentId), eq(mailMessages.threadId, thread.id)))
    .limit(1);
  if (!row) throw attachmentNotFound(o.attachmentId, "thread");
  return { attachment: row.attachment, messageId: row.messageId, threadId: thread.id, mailboxId: thread.mailboxId };
}

/** An attachment of one message of an inbox the actor may read (the REST-only message-scoped download). */
export async function findMessageAttachment(
  db: Executor,
  o: { actor: Actor; inboxId: string; messageId: string; attachmentId: string },
): Promise<FoundAttachment> {
  const message = await findMessage(db, o.actor, o.inboxId, o.messageId);
  const [attachment] = await db
    .select()
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, o.actor.projectId), eq(mailAttachments.messageId, message.id), eq(mailAttachments.id, o.attachmentId)))
    .limit(1);
  if (!attachment) throw attachmentNotFound(o.attachmentId, "message");
  return { attachment, messageId: message.id, threadId: message.threadId, mailboxId: message.mailboxId };
}
