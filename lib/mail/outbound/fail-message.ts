import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages, messageColumns } from "@/lib/db/schema/mail";
import { emitEvent } from "@/lib/events/emit-event";
import { recordSystemAct } from "@/lib/ledger/record-system-act";

/**
 * A message that will not be delivered (attempts used up, or refused for good): `failed`, and for agents' sends
 * (email_send, which has a batch) an `email.failed` event in the project inbox.
 */
export async function failMessage(tx: Executor, opts: { projectId: string; messageId: string; error: string; attempts: number }): Promise<void> {
  const [m] = await tx
    .update(mailMessages)
    .set({ status: "failed", sendStatus: "failed", sendReason: opts.error.slice(0, 1000), lastError: opts.error, updatedAt: sql`now()` })
    .where(and(eq(mailMessages.projectId, opts.projectId), eq(mailMessages.id, opts.messageId), inArray(mailMessages.status, ["queued", "sending"])))
    .returning(messageColumns);
  if (!m) return;
  let eventId: string | null = null;
  if (m.batchId) {
    const event = await emitEvent(tx, {
      projectId: m.projectId,
      type: "email.failed",
      dedupeKey: `failed:${m.id}`,
      payload: { message_id: m.id, batch_id: m.batchId, to: m.to[0], subject: m.subject, error: opts.error, attempts: m.attempts },
    });
    eventId = event.id;
  }
  await recordSystemAct(tx, { projectId: m.projectId, op: "email.fail", subject: m.id, input: { to: m.to, error: opts.error }, output: { event_id: eventId } });
}
