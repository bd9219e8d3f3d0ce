import type { Executor } from "@/lib/db/client";
import { isTransaction } from "@/lib/db/transaction";
import { newId } from "@/lib/ids";
import { storableJson } from "@/lib/db/statement";
import { resolveNumber } from "@/lib/jobs/define-job-kind";
import { jobWakeups } from "@/lib/jobs/enqueue-job";
import type { MailEventType } from "@/lib/mail/events/event-types";
import { notifyMailEvents } from "@/lib/mail/events/mail-events-channel";
import { insertMailEvent, insertMailEventOnly } from "@/lib/mail/events/statements";
import { mayHaveWebhooks } from "@/lib/mail/webhooks/webhook-presence";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";

/** What an event says about its message, never a body (design D10): webhooks and the stream send it as is. */
export interface MailEventSummary {
  from: string | null;
  to: string[];
  subject: string | null;
  preview: string | null;
  labels: string[];
  /** `domain.verified`: the domain, since the event names no message. */
  domain?: string;
}

export interface MailEventInput {
  projectId: string;
  mailboxId: string | null;
  /** `message.received` (or `.spam`/`.blocked`/`.unauthenticated`), `message.sent`, … (event-types.ts) */
  type: MailEventType;
  messageId: string | null;
  threadId: string | null;
  draftId?: string | null;
  summary: MailEventSummary;
}

/** Transactions that already carry a notice for a mailbox: one notice each, however many events. */
const told = new WeakMap<Executor, Set<string>>();

/**
 * Writes one mail outbox row (`mev_…`) in the caller's transaction, so the event exists exactly when the change
 * does, with a delivery and a job for every webhook that wants it (the same statement: statements.ts), and after
 * commit tells listeners of `brynth_mail_events` that the mailbox has new events.
 */
export async function emitMailEvent(tx: Executor, e: MailEventInput): Promise<string> {
  const id = newId("mev");
  const summary = {
    from: e.summary.from,
    to: e.summary.to,
    subject: e.summary.subject,
    preview: e.summary.preview,
    labels: e.summary.labels,
    ...(e.summary.domain ? { domain: e.summary.domain } : {}),
  };
  const row = [id, e.projectId, e.mailboxId, e.type, e.messageId, e.threadId, e.draftId ?? null, storableJson(summary)] as const;
  if (await mayHaveWebhooks(tx, e.projectId)) {
    const [fanOut] = await insertMailEvent(tx, ...row, webhookDeliveryJob.kind, resolveNumber(webhookDeliveryJob.maxAttempts, 5));
    // The runners' wake-up enqueueJob sends, once per transaction; nothing to wake when no webhook wanted it.
    if (fanOut && fanOut.jobs > 0) jobWakeups.notify(tx, webhookDeliveryJob.kind);
  } else {
    await insertMailEventOnly(tx, ...row);
  }
  // Outside a transaction the notice goes at once, every time; inside, once per mailbox after the commit.
  if (!isTransaction(tx)) {
    notifyMailEvents(tx, { project: e.projectId, mailbox: e.mailboxId });
    return id;
  }
  const key = `${e.projectId}\u0000${e.mailboxId ?? ""}`;
  let keys = told.get(tx);
  if (!keys) told.set(tx, (keys = new Set()));
  if (!keys.has(key)) {
    keys.add(key);
    notifyMailEvents(tx, { project: e.projectId, mailbox: e.mailboxId });
  }
  return id;
}
