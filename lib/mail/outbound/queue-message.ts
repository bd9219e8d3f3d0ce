import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailMessages, mailThreads, type Mailbox } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { enqueueJobs } from "@/lib/jobs/enqueue-job";
import { extractReply } from "@/lib/mail/extract/extract-reply";
import { baseSubject } from "@/lib/mail/inbound/base-subject";
import type { StoredBlob } from "@/lib/mail/inbound/store-inbound";
import { newThreadSummary, touchMailboxActivity } from "@/lib/mail/inbound/thread-summary";
import { deliverMessageJob } from "@/lib/mail/outbound/deliver-message-job";

export interface QueueMessageOptions {
  mailbox: Mailbox;
  /** One message per recipient. */
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** Already in the blob store (one copy per batch, shared by its messages). */
  attachments: StoredBlob[];
  batchId: string | null;
  replyToInbox: boolean;
  countsQuota: boolean;
  keyId: string | null;
  agent: string | null;
  /** Brynth's own extra headers (e.g. Auto-Submitted); never from an agent. */
  headers?: Record<string, string>;
  /** `queued` starts delivery now; `pending` waits for an approval to release it. */
  status?: "queued" | "pending";
}

/**
 * Outbound messages, one per recipient, each in a thread of its own in the sender's mailbox, with their delivery
 * jobs when queued — in the caller's transaction, one multi-row INSERT per table however many recipients. Each
 * Message-ID is `<msg_…@domain>`, so a reply's In-Reply-To finds its message directly. Rows carry what the mailbox
 * tools read: the `sent` label (`pending_approval` while an approval holds them), send_status, msg_at, the
 * extracted reply and preview, and each new thread's summary (the same one inbound mail keeps).
 */
export async function queueMessages(tx: Executor, o: QueueMessageOptions): Promise<Array<{ id: string; to: string; status: "queued" | "pending" }>> {
  const projectId = o.mailbox.projectId;
  const domain = o.mailbox.address.slice(o.mailbox.address.lastIndexOf("@") + 1);
  const status = o.status ?? "queued";
  const items = o.to.map((to) => ({ id: newId("msg"), threadId: newId("thr"), to }));
  const now = new Date();
  const labels = status === "queued" ? ["sent"] : ["pending_approval"];
  const sendStatus = status === "queued" ? "queued" : "pending_approval";
  const extracted = extractReply({ text: o.text, html: o.html }, { keepWhole: false });
  const summary = (m: (typeof items)[number]) =>
    newThreadSummary({
      id: m.id,
      msgAt: now,
      direction: "outbound",
      preview: extracted.preview,
      from: o.mailbox.address,
      recipients: [m.to],
      sizeBytes: 0,
      attachmentCount: o.attachments.length,
      labels,
      category: "normal",
    });
  await tx
    .insert(mailThreads)
    .values(items.map((m) => ({ id: m.threadId, projectId, mailboxId: o.mailbox.id, subject: o.subject, baseSubject: baseSubject(o.subject), ...summary(m) })));
  await tx.insert(mailMessages).values(
    items.map((m) => ({
      id: m.id,
      projectId,
      mailboxId: o.mailbox.id,
      threadId: m.threadId,
      direction: "outbound" as const,
      status,
      rfcMessageId: `${m.id}@${domain}`,
      fromAddress: o.mailbox.address,
      fromName: o.mailbox.displayName,
      to: [m.to],
      subject: o.subject,
      text: o.text,
      html: o.html,
      ...extracted,
      msgAt: now,
      labels,
      sendStatus,
      headers: o.headers ?? {},
      batchId: o.batchId,
      replyToInbox: o.replyToInbox,
      countsQuota: o.countsQuota,
      keyId: o.keyId,
      agent: o.agent,
    })),
  );
  await touchMailboxActivity(tx, { projectId, mailboxId: o.mailbox.id, at: now });
  if (o.attachments.length > 0) {
    await tx.insert(mailAttachments).values(items.flatMap((m) => o.attachments.map((a) => ({ id: newId("att"), projectId, messageId: m.id, ...a }))));
  }
  if (status === "queued") await startDeliveries(tx, { projectId, messageIds: items.map((m) => m.id) });
  return items.map((m) => ({ id: m.id, to: m.to, status }));
}

/** Enqueues the delivery job of a queued message (used when an approval releases a pending one). */
export async function startDelivery(tx: Executor, opts: { projectId: string; messageId: string }): Promise<string> {
  const [id] = await startDeliveries(tx, { projectId: opts.projectId, messageIds: [opts.messageId] });
  return id;
}

/** Enqueues the delivery jobs of queued messages: one INSERT and one NOTIFY for the lot. */
export function startDeliveries(tx: Executor, opts: { projectId: string; messageIds: string[] }) {
  return enqueueJobs(
    tx,
    deliverMessageJob,
    opts.messageIds.map((id) => ({ payload: { message_id: id }, projectId: opts.projectId, dedupeKey: id })),
  );
}
