import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries, type MailDelivery } from "@/lib/db/schema/mail-send";
import { emitEvent } from "@/lib/events/emit-event";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { isFailure, type DsnReport } from "@/lib/mail/inbound/parse-dsn";
import { blockManaged } from "@/lib/mail/lists/block-managed";
import { settleMessage } from "@/lib/mail/outbound/settle-message";

type Failure = DsnReport["recipients"][number];
type Sent = {
  id: string;
  mailboxId: string;
  from: string | null;
  threadId: string;
  to: string[];
  cc: string[];
  subject: string | null;
  preview: string | null;
  labels: string[];
};

/** An enhanced status code (RFC 3463) as the remote wrote it, or nothing: the DSN is untrusted text. */
const statusOf = (f: Failure) => (f.status && /^[245]\.\d{1,3}\.\d{1,3}$/.test(f.status) ? f.status : null);
const why = (f: Failure) => (f.diagnostic ?? f.status ?? "bounced").slice(0, 1000);

/**
 * A DSN about messages this project sent. Each failed recipient is found in the delivery that carried it
 * (mail_deliveries.recipients): it joins the delivery's `rejected`, the delivery becomes `bounced` once all its
 * recipients have, and the message settles from its deliveries (settleMessage). Each bounced address gets a
 * read-only (managed) send block entry in the sending mailbox, so the agent cannot mail it again by mistake; the
 * message gets `message.bounced` and, as before deliveries existed, `email.bounced` (the diagnostic is the remote
 * server's text, hence untrusted). Returns the `email.bounced` event id, or "not-ours" when the report cites none
 * of our messages (it is then ordinary mail). A repeated DSN changes nothing.
 */
export async function handleBounce(tx: Executor, opts: { projectId: string; report: DsnReport; dsnMessageId: string }): Promise<string | null | "not-ours"> {
  if (opts.report.citedIds.length === 0) return "not-ours";
  const sent = await tx
    .select({
      id: mailMessages.id,
      mailboxId: mailMessages.mailboxId,
      from: mailMessages.fromAddress,
      threadId: mailMessages.threadId,
      to: mailMessages.to,
      cc: mailMessages.cc,
      subject: mailMessages.subject,
      preview: mailMessages.preview,
      labels: mailMessages.labels,
    })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, opts.projectId), eq(mailMessages.direction, "outbound"), inArray(mailMessages.rfcMessageId, opts.report.citedIds)));
  if (sent.length === 0) return "not-ours";
  const failures = opts.report.recipients.filter(isFailure);
  let eventId: string | null = null;
  for (const m of sent) {
    if (failures.length === 0) continue; // delayed or relayed: nothing to report yet
    const deliveries = await tx
      .select()
      .from(mailDeliveries)
      .where(and(eq(mailDeliveries.projectId, opts.projectId), eq(mailDeliveries.messageId, m.id)))
      .for("update");
    const bounced = deliveries.length > 0 ? await bounceDeliveries(tx, deliveries, failures) : await bounceLegacy(tx, opts.projectId, m, failures);
    if (bounced.length === 0) continue;
    await settleMessage(tx, { projectId: opts.projectId, messageId: m.id });
    for (const b of bounced) {
      await blockManaged(tx, {
        projectId: opts.projectId,
        mailboxId: m.mailboxId,
        address: b.recipient,
        reason: `bounced: ${statusOf(b.failure) ?? "failed"}`,
      });
    }
    await emitMailEvent(tx, {
      projectId: opts.projectId,
      mailboxId: m.mailboxId,
      type: "message.bounced",
      messageId: m.id,
      threadId: m.threadId,
      summary: { from: m.from, to: bounced.map((b) => b.recipient), subject: m.subject, preview: m.preview, labels: m.labels },
    });
    const first = bounced[0].failure;
    const event = await emitEvent(tx, {
      projectId: opts.projectId,
      type: "email.bounced",
      trust: "external_untrusted",
      dedupeKey: `bounce:${m.id}`,
      payload: {
        message_id: m.id,
        to: bounced[0].recipient,
        status: first.status,
        action: first.action,
        diagnostic: first.diagnostic,
        report_message_id: opts.dsnMessageId,
      },
    });
    await recordSystemAct(tx, { projectId: opts.projectId, op: "email.bounce", subject: m.id, input: bounced, output: { event_id: event.id } });
    eventId ??= event.id;
  }
  return eventId;
}

/**
 * Each failure in the delivery whose envelope held its recipient. A report without Final-Recipient names the
 * message's only delivery, if it has one. Recipients already recorded as bounced are skipped (a repeated DSN).
 */
async function bounceDeliveries(tx: Executor, deliveries: MailDelivery[], failures: Failure[]) {
  const out: Array<{ recipient: string; failure: Failure }> = [];
  for (const d of deliveries) {
    const mine = failures.flatMap((f) => {
      const rcpt = f.recipient?.toLowerCase() ?? (deliveries.length === 1 && d.recipients.length === 1 ? d.recipients[0] : null);
      return rcpt && d.recipients.includes(rcpt) && !d.rejected.some((r) => r.recipient === rcpt) ? [{ recipient: rcpt, failure: f }] : [];
    });
    if (mine.length === 0) continue;
    const rejected = [...d.rejected, ...mine.map((b) => ({ recipient: b.recipient, response: `bounced: ${why(b.failure)}` }))];
    const all = d.recipients.every((r) => rejected.some((x) => x.recipient === r));
    await tx
      .update(mailDeliveries)
      .set({
        rejected,
        accepted: d.accepted.filter((a) => !mine.some((b) => b.recipient === a)),
        // A DSN from beyond the relay proves the relay took the message: an unknown delivery was sent after all.
        status: all ? "bounced" : d.status === "unknown" ? "sent" : d.status,
        lastError: all ? why(mine[0].failure) : d.lastError,
        updatedAt: sql`now()`,
      })
      .where(and(eq(mailDeliveries.projectId, d.projectId), eq(mailDeliveries.id, d.id)));
    out.push(...mine);
  }
  return out;
}

/** A message sent before deliveries existed (one recipient): the message itself bounces. */
async function bounceLegacy(tx: Executor, projectId: string, m: Sent, failures: Failure[]) {
  const failure = failures.find((f) => !f.recipient || m.to.some((t) => t.toLowerCase() === f.recipient?.toLowerCase())) ?? failures[0];
  const [done] = await tx
    .update(mailMessages)
    .set({ status: "bounced", sendStatus: "bounced", sendReason: why(failure), lastError: why(failure), updatedAt: sql`now()` })
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, m.id), sql`${mailMessages.status} <> 'bounced'`))
    .returning({ id: mailMessages.id });
  return done ? [{ recipient: (m.to[0] ?? "").toLowerCase(), failure }] : [];
}
