import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { applyLabels } from "@/lib/mail/labels/apply-labels";
import type { ComplaintReport } from "@/lib/mail/inbound/parse-complaint";
import { blockManaged } from "@/lib/mail/lists/block-managed";

/**
 * A spam complaint (ARF) about messages this project sent: the complaining address — the report's Original-Rcpt-To,
 * else the message's only recipient — gets a managed send block entry, so the agent does not mail someone who called
 * it spam, and the message the `complained` label and a `message.complained` event naming who complained. Only
 * complainers the report may speak for count (complaint-trust.ts); a report that speaks for nobody is "not-ours",
 * ordinary mail, as is one citing none of our messages. Each recipient counts once: a repeated report changes
 * nothing, a second recipient's complaint about the same message blocks them too.
 */
export async function handleComplaint(
  tx: Executor,
  o: { projectId: string; report: ComplaintReport; reportMessageId: string; trust: (candidates: readonly string[]) => string[] },
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
  const complaints = sent.map((m) => {
    const all = [...m.to, ...m.cc, ...m.bcc].map((a) => a.toLowerCase());
    const named = o.report.recipients.filter((r) => all.includes(r));
    return { m, complainers: o.trust(named.length > 0 ? named : all.length === 1 ? all : []) };
  });
  if (!complaints.some((c) => c.complainers.length > 0)) return "not-ours";
  for (const { m, complainers } of complaints) {
    const fresh: string[] = [];
    for (const address of complainers) {
      if (await blockManaged(tx, { projectId: o.projectId, mailboxId: m.mailboxId, address, reason: `complained: ${o.report.feedbackType}` }))
        fresh.push(address);
    }
    if (fresh.length === 0) continue;
    await applyLabels(tx, { projectId: o.projectId, change: { add: ["complained"], remove: [] }, messageIds: [m.id] });
    await emitMailEvent(tx, {
      projectId: o.projectId,
      mailboxId: m.mailboxId,
      type: "message.complained",
      messageId: m.id,
      threadId: m.threadId,
      summary: { from: m.from, to: fresh, subject: m.subject, preview: m.preview, labels: [...new Set([...m.labels, "complained"])] },
    });
    await recordSystemAct(tx, {
      projectId: o.projectId,
      op: "email.complaint",
      subject: m.id,
      input: { feedback_type: o.report.feedbackType, recipients: fresh },
      output: { report_message_id: o.reportMessageId },
    });
  }
  return "handled";
}
