import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { diskAttachments } from "@/lib/db/schema/disk";
import { sources } from "@/lib/db/schema/events";
import { mailAttachments, mailboxes, mailMessages, type MailMessage } from "@/lib/db/schema/mail";
import { emitEvent } from "@/lib/events/emit-event";
import { receivedPayload } from "@/lib/mail/inbound/received-payload";

/**
 * The `email.received` event a released message would have made on arrival. Only blocked mail never made one
 * (store-inbound.ts emits for every other category), so this is for blocked mail to the project address while it
 * has an email source, under the same rules as at ingest: not for a reply to our mail sent without reply_to_inbox.
 * Its attachments get their `evt_…/name` copies as then. Returns the event id, or null when none is due.
 */
export async function emitReleasedEmailEvent(tx: Executor, message: Omit<MailMessage, "search">): Promise<string | null> {
  if (message.eventId || message.category !== "blocked") return null;
  const { projectId } = message;
  const [[mailbox], [source], [parent]] = await Promise.all([
    tx
      .select({ address: mailboxes.address, isDefault: mailboxes.isDefault })
      .from(mailboxes)
      .where(and(eq(mailboxes.projectId, projectId), eq(mailboxes.id, message.mailboxId))),
    tx
      .select({ id: sources.id, name: sources.name })
      .from(sources)
      .where(and(eq(sources.projectId, projectId), eq(sources.type, "email"), isNull(sources.removedAt)))
      .limit(1),
    message.inReplyToMessageId
      ? tx
          .select({ id: mailMessages.id, direction: mailMessages.direction, replyToInbox: mailMessages.replyToInbox })
          .from(mailMessages)
          .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, message.inReplyToMessageId)))
      : [],
  ]);
  if (!mailbox?.isDefault || !source) return null;
  const repliedTo = parent?.direction === "outbound" ? parent : null;
  if (repliedTo?.replyToInbox === false) return null;
  const attachments = await tx
    .select()
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, projectId), eq(mailAttachments.messageId, message.id)));
  const payload = { ...receivedPayload(message, mailbox.address, attachments), reply_to: repliedTo?.id ?? null };
  const event = await emitEvent(tx, { projectId, source: source.name, sourceId: source.id, type: "email.received", trust: "external_untrusted", payload });
  if (attachments.length > 0) {
    await tx
      .insert(diskAttachments)
      .values(attachments.map((a) => ({ projectId, eventId: event.id, name: a.name, blobKey: a.blobKey, sizeBytes: a.sizeBytes, contentType: a.contentType })));
  }
  await tx
    .update(mailMessages)
    .set({ eventId: event.id })
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, message.id)));
  return event.id;
}
