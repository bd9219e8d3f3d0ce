import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { emitEvent } from "@/lib/events/emit-event";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { isFailure, type DsnReport } from "@/lib/mail/inbound/parse-dsn";

/**
 * A DSN about messages this project sent: each cited message that failed becomes `bounced`, with an
 * `email.bounced` event (the diagnostic is the remote server's text, hence untrusted). Returns the event id, or
 * null when the report cites none of our messages (it is then ordinary mail).
 */
export async function handleBounce(tx: Executor, opts: { projectId: string; report: DsnReport; dsnMessageId: string }): Promise<string | null | "not-ours"> {
  if (opts.report.citedIds.length === 0) return "not-ours";
  const sent = await tx
    .select({ id: mailMessages.id, to: mailMessages.to, status: mailMessages.status })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, opts.projectId), eq(mailMessages.direction, "outbound"), inArray(mailMessages.rfcMessageId, opts.report.citedIds)));
  if (sent.length === 0) return "not-ours";
  let eventId: string | null = null;
  for (const m of sent) {
    const failure =
      opts.report.recipients.find((r) => isFailure(r) && (!r.recipient || m.to.some((t) => t.toLowerCase() === r.recipient!.toLowerCase()))) ??
      opts.report.recipients.find(isFailure);
    if (!failure) continue; // delayed or relayed: nothing to report yet
    await tx
      .update(mailMessages)
      .set({
        status: "bounced",
        sendStatus: "bounced",
        sendReason: (failure.diagnostic ?? failure.status ?? "bounced").slice(0, 1000),
        lastError: failure.diagnostic ?? failure.status ?? "bounced",
        updatedAt: sql`now()`,
      })
      .where(and(eq(mailMessages.projectId, opts.projectId), eq(mailMessages.id, m.id)));
    const event = await emitEvent(tx, {
      projectId: opts.projectId,
      type: "email.bounced",
      trust: "external_untrusted",
      dedupeKey: `bounce:${m.id}`,
      payload: {
        message_id: m.id,
        to: m.to[0] ?? failure.recipient,
        status: failure.status,
        action: failure.action,
        diagnostic: failure.diagnostic,
        report_message_id: opts.dsnMessageId,
      },
    });
    await recordSystemAct(tx, { projectId: opts.projectId, op: "email.bounce", subject: m.id, input: failure, output: { event_id: event.id } });
    eventId ??= event.id;
  }
  return eventId;
}
