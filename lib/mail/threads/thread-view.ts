import type { MailThread } from "@/lib/db/schema/mail";

/** A thread as the mailbox tools show it: the summary the store keeps current, so a list reads one row per thread. */
export function threadView(t: MailThread) {
  return {
    threadId: t.id,
    inboxId: t.mailboxId,
    labels: t.labels,
    timestamp: t.lastMessageAt.toISOString(),
    subject: t.subject,
    preview: t.preview,
    senders: t.senders,
    recipients: t.recipients,
    messageCount: t.messageCount,
    size: t.sizeBytes,
    lastMessageId: t.lastMessageId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
export type ThreadView = ReturnType<typeof threadView>;
