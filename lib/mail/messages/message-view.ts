import type { MailMessage } from "@/lib/db/schema/mail";
import { nameAddress } from "@/lib/mail/messages/name-address";

/** A stored message as the mailbox tools read it: every column but the search vector (`messageColumns`). */
export type MessageRow = Omit<MailMessage, "search">;
/** What lists and searches read of a message (`messageItemColumns`): no bodies, no headers. */
export type MessageItemRow = Omit<MessageRow, "text" | "html" | "extractedText" | "extractedHtml" | "headers">;

/**
 * Attachment metadata only: the bytes are fetched with get_attachment (or REST), never inlined. Built in SQL
 * (attachmentsJson in attachments-of.ts).
 */
export interface AttachmentView {
  attachmentId: string;
  filename: string;
  contentType: string;
  size: number;
  inline: boolean;
}

/** AgentMail's `from`: `Name <addr>` (nameAddress), or the bare address. */
const fromOf = (m: Pick<MessageRow, "fromAddress" | "fromName">) => (m.fromAddress === null ? null : nameAddress(m.fromName, m.fromAddress));

/**
 * What list_messages shows of a message: metadata and the preview, no bodies (AgentMail's list item). The verdicts
 * are the three this instance computed; the mailauth details stay in the dashboard.
 */
export function messageItemView(m: MessageItemRow, attachments: readonly AttachmentView[]) {
  const auth = m.authentication;
  return {
    inboxId: m.mailboxId,
    threadId: m.threadId,
    messageId: m.id,
    rfcMessageId: m.rfcMessageId,
    labels: m.labels,
    timestamp: m.msgAt.toISOString(),
    from: fromOf(m),
    to: m.to,
    cc: m.cc,
    replyTo: m.replyToAddresses,
    subject: m.subject,
    preview: m.preview,
    attachments: [...attachments],
    inReplyTo: m.inReplyTo,
    references: m.references,
    size: m.sizeBytes,
    authentication: auth ? { spf: auth.spf, dkim: auth.dkim, dmarc: auth.dmarc } : null,
    // Outbound only: an inbound message has no send state.
    sendStatus: m.direction === "outbound" ? (m.sendStatus ?? m.status) : null,
    sendReason: m.direction === "outbound" ? (m.sendReason ?? m.lastError) : null,
    direction: m.direction,
    createdAt: m.createdAt.toISOString(),
  };
}
export type MessageItemView = ReturnType<typeof messageItemView>;

/** get_message and get_thread: the list item plus the bodies and the reply without its quoted history. */
export function messageView(m: MessageRow, attachments: readonly AttachmentView[]) {
  return { ...messageItemView(m, attachments), text: m.text, html: m.html, extractedText: m.extractedText, extractedHtml: m.extractedHtml };
}
export type MessageView = ReturnType<typeof messageView>;
