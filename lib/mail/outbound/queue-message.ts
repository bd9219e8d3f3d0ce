import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, type Mailbox } from "@/lib/db/schema/mail";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { together } from "@/lib/db/together";
import { newId } from "@/lib/ids";
import { enqueueJobs } from "@/lib/jobs/enqueue-job";
import { extractReply } from "@/lib/mail/extract/extract-reply";
import { baseSubject } from "@/lib/mail/inbound/base-subject";
import { isLocalDomain } from "@/lib/mail/inbound/resolve-recipient";
import type { StoredBlob } from "@/lib/mail/inbound/store-inbound";
import { addToThreadSummary, newThreadSummary } from "@/lib/mail/inbound/thread-summary";
import { deliverMessageJob } from "@/lib/mail/outbound/deliver-message-job";
import { type SealedBody, sealBody } from "@/lib/mail/outbound/sealed-body";
import { insertDeliveries, insertNewThreads, insertOutboundMessages, type OutboundMessageRow } from "@/lib/mail/outbound/statements";

/** One outbound message: its recipients, content and, for a reply, the thread it joins. */
export interface OutboundItem {
  to: string[];
  cc?: string[];
  /** Envelope only: never written into a header. */
  bcc?: string[];
  replyTo?: string[];
  subject: string;
  text: string | null;
  html: string | null;
  /** The agent's allow-listed extra headers (send-fields.ts). */
  customHeaders?: Record<string, string>;
  /** The sender's own labels, besides the system ones. */
  labels?: string[];
  /** A reply: the thread it joins and the ids its In-Reply-To and References carry. */
  thread?: { id: string; inReplyTo: string | null; references: string[]; inReplyToMessageId: string | null } | null;
  /** A message that starts a thread may still cite others (a plain draft's `references`); a reply's come with `thread`. */
  references?: string[];
  draftId?: string | null;
  /** The body as sent, when the stored `text`/`html` withhold parts of it (send-system-email.ts): kept sealed. */
  sealed?: SealedBody | null;
}

export interface QueueOutboundOptions {
  mailbox: Mailbox;
  items: OutboundItem[];
  /** Already in the blob store, shared by every item (a forward re-attaches the original's blobs). */
  attachments: StoredBlob[];
  /** Recipient domains this instance receives for, when the caller knows them (checkRoute); else looked up. */
  localDomains?: Set<string>;
  batchId?: string | null;
  replyToInbox?: boolean;
  countsQuota: boolean;
  keyId: string | null;
  agent: string | null;
  /** Brynth's own extra headers (e.g. Auto-Submitted). */
  headers?: Record<string, string>;
  /** `queued` starts delivery now; `pending` waits for an approval to release it. */
  status?: "queued" | "pending";
}

export interface QueuedMessage {
  id: string;
  threadId: string;
  to: string[];
  status: "queued" | "pending";
}

const domainOf = (a: string) => a.slice(a.lastIndexOf("@") + 1).toLowerCase();

/**
 * Outbound messages (design D7), in the caller's transaction: one row per message however many recipients, its
 * deliveries — one per recipient on this instance, one relay transaction for all the others — and, when queued,
 * one job per delivery. Rows per table go in one multi-row INSERT however many messages (email_send's fan-out).
 * Each Message-ID is `<msg_…@domain>`, so a reply's In-Reply-To finds its message directly. Rows carry what the
 * mailbox tools read: the `sent` label (`pending_approval` while held), send_status, msg_at, the extracted reply
 * and preview, and the thread summary inbound mail keeps too.
 */
export async function queueOutbound(tx: Executor, o: QueueOutboundOptions): Promise<QueuedMessage[]> {
  const projectId = o.mailbox.projectId;
  const domain = domainOf(o.mailbox.address);
  const status = o.status ?? "queued";
  const now = new Date();
  const system = status === "queued" ? ["sent"] : ["pending_approval"];
  const local = o.localDomains ?? (await localDomainsOf(tx, o.items));
  const rows = o.items.map((it) => {
    const id = newId("msg");
    const labels = [...new Set([...system, ...(it.labels ?? [])])];
    const recipients = [...new Set([...it.to, ...(it.cc ?? []), ...(it.bcc ?? [])].map((r) => r.toLowerCase()))];
    return {
      it,
      id,
      threadId: it.thread?.id ?? newId("thr"),
      labels,
      recipients,
      extracted: extractReply({ text: it.text, html: it.html }, { keepWhole: false }),
    };
  });
  const summary = (r: (typeof rows)[number]) => ({
    id: r.id,
    msgAt: now,
    direction: "outbound" as const,
    preview: r.extracted.preview,
    from: o.mailbox.address,
    recipients: [...r.it.to, ...(r.it.cc ?? [])],
    sizeBytes: 0,
    attachmentCount: o.attachments.length,
    labels: r.labels,
    category: "normal",
  });
  const messageRow = (r: (typeof rows)[number]): OutboundMessageRow => ({
    id: r.id,
    projectId,
    mailboxId: o.mailbox.id,
    threadId: r.threadId,
    direction: "outbound" as const,
    status,
    rfcMessageId: `${r.id}@${domain}`,
    inReplyTo: r.it.thread?.inReplyTo ?? null,
    references: r.it.thread?.references ?? r.it.references ?? [],
    inReplyToMessageId: r.it.thread?.inReplyToMessageId ?? null,
    fromAddress: o.mailbox.address,
    fromName: o.mailbox.displayName,
    to: r.it.to,
    cc: r.it.cc ?? [],
    bcc: r.it.bcc ?? [],
    replyToAddresses: r.it.replyTo ?? [],
    subject: r.it.subject,
    text: r.it.text,
    html: r.it.html,
    ...r.extracted,
    msgAt: now,
    labels: r.labels,
    sendStatus: status === "queued" ? "queued" : "pending_approval",
    headers: o.headers ?? {},
    customHeaders: r.it.customHeaders ?? {},
    draftId: r.it.draftId ?? null,
    batchId: o.batchId ?? null,
    replyToInbox: o.replyToInbox ?? true,
    countsQuota: o.countsQuota,
    keyId: o.keyId,
    agent: o.agent,
    sealedBodyEnc: r.it.sealed ? sealBody(r.id, r.it.sealed) : null,
  });
  const fresh = rows.filter((r) => !r.it.thread);
  const deliveries = rows.flatMap((r) => routesOf(r.recipients, local).map((d) => ({ id: newId("dlv"), projectId, messageId: r.id, ...d })));
  // Three pipelined rounds (together): the threads; the messages, which reference them, and the jobs; the rows that
  // reference the messages. Nothing writes the mailbox row: its lock would serialise every send from it.
  await together([
    fresh.length > 0 &&
      (() =>
        insertNewThreads(
          tx,
          fresh.map((r) => ({
            id: r.threadId,
            projectId,
            mailboxId: o.mailbox.id,
            subject: r.it.subject,
            baseSubject: baseSubject(r.it.subject),
            ...newThreadSummary(summary(r)),
          })),
        )),
    ...rows.filter((r) => r.it.thread).map((r) => () => addToThreadSummary(tx, { projectId, threadId: r.threadId, message: summary(r) })),
  ]);
  await together([
    () =>
      insertOutboundMessages(
        tx,
        rows.map((r) => messageRow(r)),
      ),
    status === "queued" &&
      (() =>
        enqueueDeliveries(
          tx,
          projectId,
          deliveries.map((d) => d.id),
        )),
  ]);
  await together([
    o.attachments.length > 0 &&
      (() => tx.insert(mailAttachments).values(rows.flatMap((r) => o.attachments.map((a) => ({ id: newId("att"), projectId, messageId: r.id, ...a }))))),
    () => insertDeliveries(tx, deliveries),
  ]);
  return rows.map((r) => ({ id: r.id, threadId: r.threadId, to: r.it.to, status }));
}

/** email_send's shape: one message (and one thread) per recipient. */
export function queueMessages(
  tx: Executor,
  o: Omit<QueueOutboundOptions, "items"> & { to: string[]; subject: string; text: string; html: string | null; sealed?: SealedBody | null },
) {
  const { to, subject, text, html, sealed, ...rest } = o;
  return queueOutbound(tx, { ...rest, items: to.map((r) => ({ to: [r], subject, text, html, sealed })) });
}

/** A route per recipient on this instance (each lands in its own mailbox), one relay transaction for the rest. */
function routesOf(recipients: string[], local: Set<string>) {
  const mine = recipients.filter((r) => local.has(domainOf(r)));
  const outside = recipients.filter((r) => !local.has(domainOf(r)));
  return [
    ...mine.map((r) => ({ route: "local" as const, recipients: [r] })),
    ...(outside.length > 0 ? [{ route: "relay" as const, recipients: outside }] : []),
  ];
}

async function localDomainsOf(db: Executor, items: OutboundItem[]): Promise<Set<string>> {
  const domains = new Set(items.flatMap((it) => [...it.to, ...(it.cc ?? []), ...(it.bcc ?? [])].map(domainOf)));
  const local = new Set<string>();
  for (const d of domains) if (await isLocalDomain(db, d)) local.add(d);
  return local;
}

/** Starts the deliveries of held messages (an approval released them): one INSERT and one NOTIFY for the lot. */
export async function startDeliveries(tx: Executor, opts: { projectId: string; messageIds: string[] }): Promise<void> {
  if (opts.messageIds.length === 0) return;
  const rows = await tx
    .select({ id: mailDeliveries.id })
    .from(mailDeliveries)
    .where(and(eq(mailDeliveries.projectId, opts.projectId), inArray(mailDeliveries.messageId, opts.messageIds), eq(mailDeliveries.status, "queued")));
  await enqueueDeliveries(
    tx,
    opts.projectId,
    rows.map((r) => r.id),
  );
}

function enqueueDeliveries(tx: Executor, projectId: string, ids: string[]) {
  return enqueueJobs(
    tx,
    deliverMessageJob,
    ids.map((id) => ({ payload: { delivery_id: id }, projectId, dedupeKey: id })),
  );
}
