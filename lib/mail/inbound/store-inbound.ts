import type { Executor } from "@/lib/db/client";
import { diskAttachments } from "@/lib/db/schema/disk";
import { mailAttachments, type MailAuthVerdicts, type Mailbox } from "@/lib/db/schema/mail";
import { emitEvent } from "@/lib/events/emit-event";
import { newId } from "@/lib/ids";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { noNul } from "@/lib/mail/mail-blob";
import type { ExtractedReply } from "@/lib/mail/extract/extract-reply";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { baseSubject, SUBJECT_MAX } from "@/lib/mail/inbound/base-subject";
import { sliceWhole } from "@/lib/text/well-formed";
import { categorizeInbound, inboundLabels, type MessageCategory } from "@/lib/mail/inbound/categorize-inbound";
import { findRelated, type Related } from "@/lib/mail/inbound/find-related";
import { handleBounce } from "@/lib/mail/inbound/handle-bounce";
import { inboundContext, type InboundContext } from "@/lib/mail/inbound/inbound-context";
import type { DsnReport } from "@/lib/mail/inbound/parse-dsn";
import { trustedComplainers } from "@/lib/mail/inbound/complaint-trust";
import { handleComplaint } from "@/lib/mail/inbound/handle-complaint";
import type { ComplaintReport } from "@/lib/mail/inbound/parse-complaint";
import type { ParsedMessage } from "@/lib/mail/inbound/parse-message";
import { receivedPayload } from "@/lib/mail/inbound/received-payload";
import { type InboundMessageRow, insertMessage, insertThread } from "@/lib/mail/inbound/statements";
import { together } from "@/lib/db/together";
import { addToThreadSummary, newThreadSummary, type SummaryMessage } from "@/lib/mail/inbound/thread-summary";

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
  /** A spam complaint (ARF) about our mail. */
  complaint: ComplaintReport | null;
  /** The reply without its quoted history, and the preview (computed before the transaction). */
  extracted: ExtractedReply;
  /** The SMTP client is one of TRUSTED_RELAYS: its spam verdict counts. */
  trustedRelay: boolean;
}

export interface PreparedInbound {
  context: InboundContext;
  related: Related;
}

/**
 * The reads that storing a message needs (duplicate, lists, email source, thread and replied-to message), done
 * before its transaction and alongside the blob writes: inbound throughput is bound by database round trips.
 */
export async function prepareInbound(db: Executor, copy: Pick<InboundCopy, "mailbox" | "parsed">): Promise<PreparedInbound> {
  const { mailbox, parsed } = copy;
  const [context, related] = await Promise.all([
    inboundContext(db, {
      projectId: mailbox.projectId,
      mailboxId: mailbox.id,
      isDefault: mailbox.isDefault,
      rfcMessageId: parsed.messageId,
      inReplyTo: parsed.inReplyTo,
      from: parsed.from?.address ?? null,
    }),
    findRelated(db, {
      projectId: mailbox.projectId,
      mailboxId: mailbox.id,
      messageId: parsed.messageId,
      inReplyTo: parsed.inReplyTo,
      references: parsed.references,
      subject: parsed.subject,
    }),
  ]);
  return { context, related };
}

/**
 * One received message in one mailbox, in the caller's transaction: thread, message, attachments, then what it
 * means — a bounce of ours (`email.bounced`), a complaint about ours (`message.complained`), or `email.received` when the mailbox is the project address with an
 * email source — and its ledger entry. A redelivery of a Message-ID already stored here is skipped. Ids are made
 * up front so the event can name the message without a second write. Independent statements are issued together
 * (`together`): on PostgreSQL they share the connection's round trips, two instead of six; PGlite runs them in turn.
 */
export async function writeInbound(
  tx: Executor,
  c: InboundCopy,
  p: PreparedInbound,
): Promise<{ messageId: string; eventId: string | null; duplicate: boolean }> {
  const { context, related } = p;
  const { mailbox, parsed } = c;
  const projectId = mailbox.projectId;
  if (context.duplicate) return { messageId: context.duplicate.id, eventId: context.duplicate.eventId, duplicate: true };
  const now = new Date();
  // Cut between characters: a cut inside an emoji left half of it, stored as U+FFFD.
  const subject = parsed.subject === null ? null : sliceWhole(noNul(parsed.subject), SUBJECT_MAX);
  const threadId = related.threadId ?? newId("thr");
  const category = categorizeInbound({ blocked: context.blocked, auth: c.auth, spamFlagged: parsed.spamFlagged, trustedRelay: c.trustedRelay });
  const message = inboundRow(c, { projectId, threadId, subject, category, inReplyToMessageId: related.inReplyToMessageId, now });
  const summary: SummaryMessage = {
    id: message.id,
    msgAt: now,
    direction: "inbound",
    preview: message.preview,
    from: message.fromAddress,
    recipients: [...message.to, ...message.cc],
    sizeBytes: c.size,
    attachmentCount: c.attachments.length,
    labels: message.labels,
    category,
  };

  // A report about our own mail (a bounce, a complaint) is not new mail: it makes no email.received. A null sender
  // is no authentication (anyone may use one): a DSN whose sender the lists refuse, or whose From fails DMARC, is
  // kept as the mail it is and bounces nobody (found by helper-107).
  const bounce = c.dsn && category !== "blocked" && c.auth.dmarc !== "fail" ? c.dsn : null;
  const report = bounce
    ? await handleBounce(tx, { projectId, report: bounce, dsnMessageId: message.id })
    : c.complaint
      ? (await handleComplaint(tx, {
          projectId,
          report: c.complaint,
          reportMessageId: message.id,
          trust: (candidates) => trustedComplainers(candidates, { auth: c.auth, from: parsed.from?.address ?? null, trustedRelay: c.trustedRelay }),
        })) === "handled"
        ? null
        : "not-ours"
      : "not-ours";
  if (report !== "not-ours") message.eventId = report;
  const emit = report === "not-ours" && context.source && category !== "blocked" && related.repliedTo?.replyToInbox !== false;
  await together([
    () =>
      related.threadId
        ? addToThreadSummary(tx, { projectId, threadId, message: summary })
        : insertThread(tx, [{ id: threadId, projectId, mailboxId: mailbox.id, subject, baseSubject: baseSubject(subject), ...newThreadSummary(summary) }]),
    !!emit &&
      (async () => {
        const payload = { ...receivedPayload(message, mailbox.address, c.attachments), reply_to: related.repliedTo?.id ?? null };
        const event = await emitEvent(tx, {
          projectId,
          source: context.source!.name,
          sourceId: context.source!.id,
          type: "email.received",
          trust: "external_untrusted",
          payload,
        });
        message.eventId = event.id;
      }),
  ]);
  const eventId = message.eventId;
  await together([
    () => insertMessage(tx, [message]),
    c.attachments.length > 0 &&
      (() => tx.insert(mailAttachments).values(c.attachments.map((a) => ({ id: newId("att"), projectId, messageId: message.id, ...a })))),
    // The disk module's table for `evt_…/name`, pointing at the same blobs as the mail store (no second copy).
    !!emit &&
      c.attachments.length > 0 &&
      (() =>
        tx
          .insert(diskAttachments)
          .values(
            c.attachments.map((a) => ({ projectId, eventId: eventId!, name: a.name, blobKey: a.blobKey, sizeBytes: a.sizeBytes, contentType: a.contentType })),
          )),
    () =>
      emitMailEvent(tx, {
        projectId,
        mailboxId: mailbox.id,
        type: category === "normal" ? "message.received" : `message.received.${category}`,
        messageId: message.id,
        threadId,
        summary: { from: message.fromAddress, to: message.to, subject: message.subject, preview: message.preview, labels: message.labels },
      }),
    () =>
      recordSystemAct(tx, {
        projectId,
        op: "email.receive",
        subject: message.id,
        input: { from: message.fromAddress, to: message.to, subject: message.subject, size_bytes: c.size, rfc_message_id: parsed.messageId },
        output: { event_id: eventId, thread_id: threadId, blocked: category === "blocked", category, authentication: c.auth },
      }),
  ]);
  return { messageId: message.id, eventId, duplicate: false };
}

function inboundRow(
  c: InboundCopy,
  o: { projectId: string; threadId: string; subject: string | null; category: MessageCategory; inReplyToMessageId: string | null; now: Date },
): InboundMessageRow {
  const { parsed, extracted } = c;
  // RFC 5322 §3.6.4: a reply's References end with its parent's Message-ID, which some clients leave out when they
  // set In-Reply-To. Stored there, the parent, if it arrives later, finds this reply through the references index.
  const references = parsed.inReplyTo && !parsed.references.includes(parsed.inReplyTo) ? [...parsed.references, parsed.inReplyTo] : parsed.references;
  return {
    id: newId("msg"),
    projectId: o.projectId,
    mailboxId: c.mailbox.id,
    threadId: o.threadId,
    direction: "inbound",
    status: "received",
    rfcMessageId: parsed.messageId,
    inReplyTo: parsed.inReplyTo,
    references,
    inReplyToMessageId: o.inReplyToMessageId,
    customHeaders: {},
    draftId: null,
    draftClientId: null,
    fromAddress: parsed.from?.address ?? null,
    fromName: noNul(parsed.from?.name ?? null),
    to: parsed.to,
    cc: parsed.cc,
    bcc: [],
    replyToAddresses: parsed.replyTo,
    subject: o.subject,
    text: noNul(parsed.text),
    html: noNul(parsed.html),
    extractedText: noNul(extracted.extractedText),
    extractedHtml: noNul(extracted.extractedHtml),
    preview: noNul(extracted.preview),
    category: o.category,
    msgAt: o.now,
    sendStatus: null,
    sendReason: null,
    sizeBytes: c.size,
    rawBlobKey: c.rawKey,
    sealedBodyEnc: null,
    headers: Object.fromEntries(Object.entries(parsed.headers).map(([k, v]) => [k, noNul(v)])),
    authentication: c.auth,
    autoSubmitted: parsed.autoSubmitted || c.dsn !== null || c.complaint !== null,
    blocked: o.category === "blocked",
    parseError: parsed.parseError,
    labels: inboundLabels(o.category),
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
    receivedAt: o.now,
    createdAt: o.now,
    updatedAt: o.now,
  };
}
