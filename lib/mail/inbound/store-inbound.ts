import { and, eq, sql } from "drizzle-orm";
import { systemActor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskAttachments } from "@/lib/db/schema/disk";
import { mailAttachments, mailMessages, mailThreads, type MailAuthVerdicts, type Mailbox } from "@/lib/db/schema/mail";
import { emitEvent } from "@/lib/events/emit-event";
import { newId } from "@/lib/ids";
import { appendEntry } from "@/lib/ledger/append-entry";
import { noNul } from "@/lib/mail/mail-blob";
import { findEmailSource } from "@/lib/mail/inbound/email-source";
import { findRelated } from "@/lib/mail/inbound/find-related";
import { handleBounce } from "@/lib/mail/inbound/handle-bounce";
import { isBlockedSender } from "@/lib/mail/inbound/is-blocked";
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
 * email source — and its ledger entry. A redelivery of a Message-ID already stored here is skipped.
 */
export async function storeInbound(tx: Executor, c: InboundCopy): Promise<{ messageId: string; eventId: string | null; duplicate: boolean }> {
  const { mailbox, parsed } = c;
  const projectId = mailbox.projectId;
  if (parsed.messageId) {
    const [dup] = await tx
      .select({ id: mailMessages.id, eventId: mailMessages.eventId })
      .from(mailMessages)
      .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.rfcMessageId, parsed.messageId), eq(mailMessages.mailboxId, mailbox.id), eq(mailMessages.direction, "inbound")));
    if (dup) return { messageId: dup.id, eventId: dup.eventId, duplicate: true };
  }
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
  const blocked = await isBlockedSender(tx, { projectId, mailboxId: mailbox.id, from: parsed.from?.address ?? null });
  const [message] = await tx
    .insert(mailMessages)
    .values({
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
      blocked,
      parseError: parsed.parseError,
      receivedAt: now,
    })
    .returning();
  if (c.attachments.length > 0) {
    await tx.insert(mailAttachments).values(c.attachments.map((a) => ({ id: newId("att"), projectId, messageId: message.id, ...a })));
  }

  let eventId: string | null = null;
  const bounce = c.dsn ? await handleBounce(tx, { projectId, report: c.dsn, dsnMessageId: message.id }) : "not-ours";
  if (bounce !== "not-ours") eventId = bounce;
  else if (mailbox.isDefault && !blocked && related.repliedTo?.replyToInbox !== false) {
    eventId = await emitReceived(tx, { message, address: mailbox.address, attachments: c.attachments, replyTo: related.repliedTo?.id ?? null });
  }
  if (eventId) await tx.update(mailMessages).set({ eventId }).where(eq(mailMessages.id, message.id));
  await appendEntry(tx, {
    actor: systemActor(projectId),
    op: "email.receive",
    subject: message.id,
    input: { from: message.fromAddress, to: message.to, subject: message.subject, size_bytes: c.size, rfc_message_id: parsed.messageId },
    output: { event_id: eventId, thread_id: threadId, blocked, authentication: c.auth },
  });
  return { messageId: message.id, eventId, duplicate: false };
}

/** `email.received` on the project's email source, with the attachments registered as `evt_…/name`. */
async function emitReceived(
  tx: Executor,
  opts: { message: typeof mailMessages.$inferSelect; address: string; attachments: StoredBlob[]; replyTo: string | null },
): Promise<string | null> {
  const { message } = opts;
  const source = await findEmailSource(tx, message.projectId);
  if (!source) return null;
  const payload = { ...receivedPayload(message, opts.address, opts.attachments), reply_to: opts.replyTo };
  const event = await emitEvent(tx, {
    projectId: message.projectId,
    source: source.name,
    sourceId: source.id,
    type: "email.received",
    trust: "external_untrusted",
    payload,
  });
  if (opts.attachments.length > 0) {
    // The disk module's table for `evt_…/name`, pointing at the same blobs as the mail store (no second copy).
    await tx.insert(diskAttachments).values(
      opts.attachments.map((a) => ({ projectId: message.projectId, eventId: event.id, name: a.name, blobKey: a.blobKey, sizeBytes: a.sizeBytes, contentType: a.contentType })),
    );
  }
  return event.id;
}
