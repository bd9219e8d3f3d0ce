import { getDb } from "@/lib/db/client";
import { emitMailEvent, type MailEventSummary } from "@/lib/mail/events/emit-mail-event";

/**
 * A `message.received` event with no message behind it, committed in its own transaction as a real change commits
 * it: what a webhook or job test needs when the mail itself is beside the point (nothing to deliver first). The
 * summary is a@example.org's "s" unless `summary` says otherwise. Returns the event's id.
 */
export async function emitBareMailEvent(at: { projectId: string; mailboxId: string | null }, summary: Partial<MailEventSummary> = {}) {
  const db = await getDb();
  return db.transaction((tx) =>
    emitMailEvent(tx, {
      ...at,
      type: "message.received",
      messageId: null,
      threadId: null,
      summary: { from: "a@example.org", to: [], subject: "s", preview: null, labels: [], ...summary },
    }),
  );
}
