import type { Executor } from "@/lib/db/client";
import type { MessageStatus } from "@/lib/db/schema/mail";
import type { DeliveryStatus } from "@/lib/db/schema/mail-send";
import { emitEvent } from "@/lib/events/emit-event";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { lockMessage, type MessageRow, messageRoutes, recordMessageState } from "@/lib/mail/outbound/statements";

/**
 * A message's state follows its deliveries: still going while any is queued or sending; `unknown` (send_status
 * `send_unknown`) while any is unknown; `sent` once any recipient got it (send_reason names the ones that did not);
 * otherwise `bounced` or `failed`. Runs in the transaction that changed a delivery, after locking the message, so
 * two deliveries finishing at once both see each other. The first `sent` emits `message.sent`; the final failure
 * of an email_send message emits `email.failed` in the project inbox, as before deliveries existed.
 */
export async function settleMessage(
  tx: Executor,
  o: {
    projectId: string;
    messageId: string;
    /** A delivery's final SMTP (or local) reply, shown on the message. */
    response?: string;
    /** Why an attempt failed, kept while the delivery waits for its retry. */
    lastError?: string;
  },
): Promise<void> {
  const [m] = await lockMessage(tx, o.projectId, o.messageId);
  if (!m) return;
  const routes = await messageRoutes(tx, o.projectId, o.messageId);
  const next = messageState(routes);
  // The message row is written once per delivery outcome, here: each UPDATE rewrites the whole row (its search
  // vector recomputed, its indexes touched), so the delivery path's only other write to it records the composed
  // bytes, once (outbound-raw.ts).
  const attempts = routes.reduce((n, r) => n + r.attempts, 0);
  const response = o.response?.slice(0, 1000) ?? m.deliveryResponse;
  const failed = next.status === "failed" || next.status === "bounced";
  const lastError = failed ? next.sendReason : (o.lastError?.slice(0, 1000) ?? m.lastError);
  const same =
    next.status === m.status && next.sendReason === m.sendReason && attempts === m.attempts && response === m.deliveryResponse && lastError === m.lastError;
  if (same) return;
  await recordMessageState(tx, o.projectId, o.messageId, next.status, next.sendStatus, next.sendReason, attempts, response, lastError);
  const after = { ...m, status: next.status, sendStatus: next.sendStatus, sendReason: next.sendReason, attempts, deliveryResponse: response, lastError };
  if (next.status === "sent" && m.status !== "sent") await emitSent(tx, after);
  if (next.status === "failed" && m.status !== "failed") await emitFailed(tx, after, next.sendReason ?? "failed");
}

type Route = {
  status: DeliveryStatus;
  attempts?: number;
  recipients: string[];
  rejected?: Array<{ recipient: string; response: string }>;
  lastError: string | null;
  response: string | null;
};

export function messageState(routes: Route[]): { status: MessageStatus; sendStatus: string; sendReason: string | null } {
  const has = (s: DeliveryStatus) => routes.some((r) => r.status === s);
  const missed = routes.filter((r) => r.status === "failed" || r.status === "bounced");
  // A route that went out can still have missed some recipients: refused at RCPT, or bounced later.
  const refused = routes.filter((r) => !missed.includes(r)).flatMap((r) => r.rejected ?? []);
  const reasons = [
    ...missed.map((r) => `${r.recipients.join(", ")}: ${r.lastError ?? r.response ?? r.status}`),
    ...refused.map((x) => `${x.recipient}: ${x.response}`),
  ];
  const why = reasons.length > 0 ? reasons.join("; ").slice(0, 1000) : null;
  if (has("queued") || has("sending")) {
    const started = routes.some((r) => r.status !== "queued");
    return { status: started ? "sending" : "queued", sendStatus: started ? "sending" : "queued", sendReason: null };
  }
  if (has("unknown"))
    return {
      status: "unknown",
      sendStatus: "send_unknown",
      sendReason: "The relay closed the connection after the message was sent; it may or may not have accepted it.",
    };
  if (has("sent")) return { status: "sent", sendStatus: "sent", sendReason: why };
  if (has("bounced") && !has("failed")) return { status: "bounced", sendStatus: "bounced", sendReason: why };
  return { status: "failed", sendStatus: "failed", sendReason: why };
}

const summaryOf = (m: MessageRow) => ({ from: m.fromAddress, to: [...m.to, ...m.cc], subject: m.subject, preview: m.preview, labels: m.labels });

function emitSent(tx: Executor, m: MessageRow) {
  return emitMailEvent(tx, {
    projectId: m.projectId,
    mailboxId: m.mailboxId,
    type: "message.sent",
    messageId: m.id,
    threadId: m.threadId,
    draftId: m.draftId,
    summary: summaryOf(m),
  });
}

/**
 * A message no recipient got: `message.rejected` in the mailbox's outbox (the relay or local delivery refused it, or
 * its attempts ran out), and for email_send's messages `email.failed` in the project inbox, as before.
 */
async function emitFailed(tx: Executor, m: MessageRow, error: string) {
  await emitMailEvent(tx, {
    projectId: m.projectId,
    mailboxId: m.mailboxId,
    type: "message.rejected",
    messageId: m.id,
    threadId: m.threadId,
    draftId: m.draftId,
    summary: summaryOf(m),
  });
  let eventId: string | null = null;
  if (m.batchId) {
    const event = await emitEvent(tx, {
      projectId: m.projectId,
      type: "email.failed",
      dedupeKey: `failed:${m.id}`,
      payload: { message_id: m.id, batch_id: m.batchId, to: m.to[0], subject: m.subject, error, attempts: m.attempts },
    });
    eventId = event.id;
  }
  await recordSystemAct(tx, { projectId: m.projectId, op: "email.fail", subject: m.id, input: { to: m.to, error }, output: { event_id: eventId } });
}
