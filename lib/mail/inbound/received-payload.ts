import type { MailAttachment, MailMessage } from "@/lib/db/schema/mail";

/**
 * The `email.received` payload. Third-party content (the event is `external_untrusted`). Attachments are listed by
 * name: `evt_<event id>/<name>` reads one with file_get / file_url and attaches it in email_send.
 */
export function receivedPayload(m: Omit<MailMessage, "search">, address: string, attachments: Pick<MailAttachment, "name" | "contentType" | "sizeBytes">[]) {
  return {
    message_id: m.id,
    thread_id: m.threadId,
    /** The project address it arrived at. */
    address,
    from: m.fromAddress,
    from_name: m.fromName,
    to: m.to,
    cc: m.cc,
    sender_reply_to: m.replyToAddresses,
    subject: m.subject,
    date: m.headers.date ?? null,
    text: m.text,
    html: m.html,
    headers: m.headers,
    authentication: m.authentication ? { spf: m.authentication.spf, dkim: m.authentication.dkim, dmarc: m.authentication.dmarc } : null,
    /** Automatic mail (auto-replies, bounces, lists): never answer it automatically. */
    auto_submitted: m.autoSubmitted,
    /** Our `email_send` message this one replies to, or null. */
    reply_to: null as string | null,
    attachments: attachments.map((a) => ({ name: a.name, content_type: a.contentType, size_bytes: a.sizeBytes })),
    size_bytes: m.sizeBytes,
    parse_error: m.parseError,
  };
}
