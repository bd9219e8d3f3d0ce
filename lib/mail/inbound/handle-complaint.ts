import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import type { ComplaintReport } from "@/lib/mail/inbound/parse-complaint";
import { blockManaged } from "@/lib/mail/lists/block-managed";

/**
 * A spam complaint (ARF) about messages this project sent: each cited message gets the `complained` label and a
 * `message.complained` event, and the complaining address — the report's Original-Rcpt-To, else the message's only
 * recipient — a managed send block entry, so the agent does not mail someone who called it spam. Returns
 * "not-ours" when the report cites none of our messages (it is then ordinary mail); a repeated report changes
 * nothing.
 */
export async function handleComplaint(
  tx: Executor,
  o: { projectId: string; report: ComplaintReport; reportMessageId: string },
): Promise<"handled" | "not-ours"> {
  if (o.report.citedIds.length === 0) return "not-ours";
  const sent = await tx
    .select({
      id: mailMessages.id,
      mailboxId: mailMessages.mailboxId,
      threadId: mailMessages.threadId,
      from: mailMessages.fromAddress,
      to: mailMessages.to,
      cc: mailMessages.cc,
      bcc: mailMessages.bcc,
      subject: mailMessages.subject,
      preview: mailMessages.preview,
      labels: mailMessages.labels,
    })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, o.projectId), eq(mailMessages.direction, "outbound"), inArray(mailMessages.rfcMessageId, o.report.citedIds)));
  if (sent.length === 0) return "not-ours";
  for (const m of sent) {
    if (m.labels.includes("complained")) continue;
    const all = [...m.to, ...m.cc, ...m.bcc].map((a) => a.toLowerCase());
    const who = o.report.recipients.filter((r) => all.includes(r));
    const complainers = who.length > 0 ? who : all.length === 1 ? all : [];
    await tx
      .update(mailMessages)
      .set({ labels: sql`${mailMessages.labels} || '["complained"]'::jsonb`, updatedAt: sql`now()` })
      .where(and(eq(mailMessages.projectId, o.projectId), eq(mailMessages.id, m.id)));
    for (const address of complainers) {
      await blockManaged(tx, { projectId: o.projectId, mailboxId: m.mailboxId, address, reason: `complained: ${o.report.feedbackType}` });
    }
    await emitMailEvent(tx, {
      projectId: o.projectId,
      mailboxId: m.mailboxId,
      type: "message.complained",
      messageId: m.id,
      threadId: m.threadId,
      summary: { from: m.from, to: complainers, subject: m.subject, preview: m.preview, labels: [...m.labels, "complained"] },
    });
    await recordSystemAct(tx, {
      projectId: o.projectId,
      op: "email.complaint",
      subject: m.id,
      input: { feedback_type: o.report.feedbackType, recipients: complainers },
      output: { report_message_id: o.reportMessageId },
    });
  }
  return "handled";
}
