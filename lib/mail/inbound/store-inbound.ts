import { eq, sql } from "drizzle-orm";
import { systemActor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskAttachments } from "@/lib/db/schema/disk";
import { mailAttachments, mailMessages, mailThreads, type MailAuthVerdicts, type Mailbox, type MailMessage } from "@/lib/db/schema/mail";
import { emitEvent } from "@/lib/events/emit-event";
import { newId } from "@/lib/ids";
import { appendEntry } from "@/lib/ledger/append-entry";
import { noNul } from "@/lib/mail/mail-blob";
import { findRelated } from "@/lib/mail/inbound/find-related";
import { handleBounce } from "@/lib/mail/inbound/handle-bounce";
import { inboundContext } from "@/lib/mail/inbound/inbound-context";
import type { DsnReport } from "@/lib/mail/inbound/parse-dsn";
import type { ParsedMessage } from "@/lib/mail/inbound/parse-message";
import { receivedPayload } from "@/lib/mail/inbound/received-payload";

export interface StoredBlob {
  name: string;
  contentType: string;
  sizeBytes: number;
  blobKey: string;
  contentId: string | null;
  inline: boolean;
}

export interface InboundCopy {
  mailbox: Mailbox;
  parsed: ParsedMessage;
  auth: MailAuthVerdicts;
  rawKey: string;
  size: number;
  attachments: StoredBlob[];
  dsn: DsnReport | null;
}

/**
 * One received message in one mailbox, in the caller's transaction: thread, message, attachments, then what it
 * means — a bounce of ours (`email.bounced`), or `email.received` when the mailbox is the project address with an
 * email source — and its ledger entry. A redelivery of a Message-ID already stored here is skipped. Ids are made
 * up front so the event can name the message and the message its event without a second write.
 */
export async function storeInbound(tx: Executor, c: InboundCopy): Promise<{ messageId: string; eventId: string | null; duplicate: boolean }> {
  const { mailbox, parsed } = c;
  const projectId = mailbox.projectId;
  const context = await inboundContext(tx, { projectId, mailboxId: mailbox.id, isDefault: mailbox.isDefault, rfcMessageId: parsed.messageId, from: parsed.from?.address ?? null });
  if (context.duplicate) return { messageId: context.duplicate.id, eventId: context.duplicate.eventId, duplicate: true };
  const related = await findRelated(tx, { projectId, mailboxId: mailbox.id, inReplyTo: parsed.inReplyTo, references: parsed.references });
  const now = new Date();
  const subject = parsed.subject === null ? null : noNul(parsed.subject).slice(0, 2000);
  let threadId = related.threadId;
  if (threadId) {
    await tx.update(mailThreads).set({ messageCount: sql`${mailThreads.messageCount} + 1`, lastMessageAt: now, updatedAt: now }).where(eq(mailThreads.id, threadId));
  } else {
    threadId = newId("thr");
    await tx.insert(mailThreads).values({ id: threadId, projectId, mailboxId: mailbox.id, subject, messageCount: 1, lastMessageAt: now });
  }
  const message: MailMessage = {
    id: newId("msg"),
    projectId,
    mailboxId: mailbox.id,
    threadId,
    direction: "inbound",
    status: "received",
    rfcMessageId: parsed.messageId,
    inReplyTo: parsed.inReplyTo,
    references: parsed.references,
    fromAddress: parsed.from?.address ?? null,
    fromName: noNul(parsed.from?.name ?? null),
    to: parsed.to,
    cc: parsed.cc,
    replyToAddresses: parsed.replyTo,
    subject,
    text: noNul(parsed.text),
    html: noNul(parsed.html),
    sizeBytes: c.size,
    rawBlobKey: c.rawKey,
    headers: Object.fromEntries(Object.entries(parsed.headers).map(([k, v]) => [k, noNul(v)])),
    authentication: c.auth,
    autoSubmitted: parsed.autoSubmitted || c.dsn !== null,
    blocked: context.blocked,
    parseError: parsed.parseError,
    labels: [],
    eventId: null,
    batchId: null,
    replyToInbox: true,
    countsQuota: false,
    attempts: 0,
    lastError: null,
    deliveryResponse: null,
    keyId: null,
    agent: null,
    sentAt: null,
    receivedAt: now,
    createdAt: now,
    updatedAt: now,
  };

  const bounce = c.dsn ? await handleBounce(tx, { projectId, report: c.dsn, dsnMessageId: message.id }) : "not-ours";
  if (bounce !== "not-ours") message.eventId = bounce;
  else if (context.source && !context.blocked && related.repliedTo?.replyToInbox !== false) {
    const payload = { ...receivedPayload(message, mailbox.address, c.attachments), reply_to: related.repliedTo?.id ?? null };
    const event = await emitEvent(tx, { projectId, source: context.source.name, sourceId: context.source.id, type: "email.received", trust: "external_untrusted", payload });
    message.eventId = event.id;
  }
  await tx.insert(mailMessages).values(message);
  if (c.attachments.length > 0) {
    await tx.insert(mailAttachments).values(c.attachments.map((a) => ({ id: newId("att"), projectId, messageId: message.id, ...a })));
    if (message.eventId && bounce === "not-ours") {
      // The disk module's table for `evt_…/name`, pointing at the same blobs as the mail store (no second copy).
      await tx.insert(diskAttachments).values(
        c.attachments.map((a) => ({ projectId, eventId: message.eventId!, name: a.name, blobKey: a.blobKey, sizeBytes: a.sizeBytes, contentType: a.contentType })),
      );
    }
  }
  await appendEntry(tx, {
    actor: systemActor(projectId),
    op: "email.receive",
    subject: message.id,
    input: { from: message.fromAddress, to: message.to, subject: message.subject, size_bytes: c.size, rfc_message_id: parsed.messageId },
    output: { event_id: message.eventId, thread_id: threadId, blocked: context.blocked, authentication: c.auth },
  });
  return { messageId: message.id, eventId: message.eventId, duplicate: false };
}
