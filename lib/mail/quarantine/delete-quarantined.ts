import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eraseMessages } from "@/lib/mail/deletion/erase-messages";
import { lockQuarantined } from "@/lib/mail/quarantine/lock-quarantined";

export const DELETE_OP = "mail.quarantine_delete";

/**
 * The owner deletes a quarantined message for good, the way REST's message deletion does (eraseMessages): the row
 * and its attachments, the thread's summary rebuilt (or the thread gone with its last message), and its bytes once
 * no other row (an event's copy, another message) points at them.
 */
export async function deleteQuarantined(tx: Executor, opts: { actor: Actor; messageId: string }) {
  const message = await lockQuarantined(tx, opts.actor, opts.messageId);
  const { threadsDeleted } = await eraseMessages(tx, { projectId: message.projectId, messageIds: [message.id] });
  return {
    id: message.id,
    mailboxId: message.mailboxId,
    threadId: message.threadId,
    threadDeleted: threadsDeleted.includes(message.threadId),
    category: message.category,
  };
}
