import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailMessages, messageColumns, type MailMessage } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";

export type StoredMessage = Omit<MailMessage, "search">;

export const messageNotFound = (ref: string) =>
  new AppError("NOT_FOUND", `Message ${ref} was not found in this inbox.`, { fix: "Check the message id with list_messages for this inbox." });

/** `msg_…` is our id; anything else is taken as an RFC Message-ID, with or without its angle brackets (design D2). */
export function messageRef(ref: string): { id: string } | { rfcMessageId: string } {
  if (/^msg_[A-Za-z0-9]+$/.test(ref)) return { id: ref };
  return { rfcMessageId: ref.trim().replace(/^<(.*)>$/, "$1") };
}

/** A message of an inbox the actor may read (findMailbox applies the key's restriction), by id or Message-ID. */
export async function findMessage(db: Executor, actor: Actor, inboxId: string, ref: string): Promise<StoredMessage> {
  const mailbox = await findMailbox(db, actor, inboxId);
  const by = messageRef(ref);
  const [row] = await db
    .select(messageColumns)
    .from(mailMessages)
    .where(
      and(
        eq(mailMessages.projectId, actor.projectId),
        eq(mailMessages.mailboxId, mailbox.id),
        "id" in by ? eq(mailMessages.id, by.id) : eq(mailMessages.rfcMessageId, by.rfcMessageId),
      ),
    )
    .limit(1);
  if (!row) throw messageNotFound(ref);
  return row;
}
