import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { eraseMessages, inFlight } from "@/lib/mail/deletion/erase-messages";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";

export const inFlightConflict = (id: string) =>
  new AppError("CONFLICT", `Message ${id} is still being sent or waits for approval and cannot be deleted now.`, {
    fix: "Wait until its send_status is sent or failed (get_message), then delete it.",
  });

/**
 * REST-only permanent deletion of one message (mailbox spec "Not available over MCP"). Idempotent: a message that
 * is already gone answers `deleted: false`; the inbox itself must still be one the key may read.
 */
export async function deleteMessage(db: Executor, o: { actor: Actor; inboxId: string; messageId: string }) {
  const mailbox = await findMailbox(db, o.actor, o.inboxId);
  const message = await findMessage(db, o.actor, mailbox.id, o.messageId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") return null;
    throw err;
  });
  if (!message) return { messageId: o.messageId, threadId: null, deleted: false, threadDeleted: false };
  if (inFlight(message)) throw inFlightConflict(message.id);
  const { erased, threadsDeleted } = await eraseMessages(db, { projectId: o.actor.projectId, messageIds: [message.id] });
  return { messageId: message.id, threadId: message.threadId, deleted: erased.length > 0, threadDeleted: threadsDeleted.length > 0 };
}
