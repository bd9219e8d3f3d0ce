import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailMessages, mailThreads, type Mailbox } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { deliverMessageJob } from "@/lib/mail/outbound/deliver-message-job";
import type { StoredBlob } from "@/lib/mail/inbound/store-inbound";

export interface QueueMessageOptions {
  mailbox: Mailbox;
  to: string;
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
 * One outbound message in the sender's mailbox (a thread of its own) and, when queued, its delivery job — all in the
 * caller's transaction. Its Message-ID is `<msg_…@domain>`, so a reply's In-Reply-To finds it directly.
 */
export async function queueMessage(tx: Executor, o: QueueMessageOptions): Promise<{ id: string; to: string; status: "queued" | "pending" }> {
  const id = newId("msg");
  const threadId = newId("thr");
  const domain = o.mailbox.address.slice(o.mailbox.address.lastIndexOf("@") + 1);
  const status = o.status ?? "queued";
  await tx.insert(mailThreads).values({ id: threadId, projectId: o.mailbox.projectId, mailboxId: o.mailbox.id, subject: o.subject, messageCount: 1, lastMessageAt: sql`now()` });
  await tx.insert(mailMessages).values({
    id,
    projectId: o.mailbox.projectId,
    mailboxId: o.mailbox.id,
    threadId,
    direction: "outbound",
    status,
    rfcMessageId: `${id}@${domain}`,
    fromAddress: o.mailbox.address,
    fromName: o.mailbox.displayName,
    to: [o.to],
    subject: o.subject,
    text: o.text,
    html: o.html,
    headers: o.headers ?? {},
    batchId: o.batchId,
    replyToInbox: o.replyToInbox,
    countsQuota: o.countsQuota,
    keyId: o.keyId,
    agent: o.agent,
  });
  if (o.attachments.length > 0) {
    await tx.insert(mailAttachments).values(o.attachments.map((a) => ({ id: newId("att"), projectId: o.mailbox.projectId, messageId: id, ...a })));
  }
  if (status === "queued") await startDelivery(tx, { projectId: o.mailbox.projectId, messageId: id });
  return { id, to: o.to, status };
}

/** Enqueues the delivery job of a queued message (also used when an approval releases a pending one). */
export function startDelivery(tx: Executor, opts: { projectId: string; messageId: string }) {
  return enqueueJob(tx, deliverMessageJob, { message_id: opts.messageId }, { projectId: opts.projectId, dedupeKey: opts.messageId });
}
