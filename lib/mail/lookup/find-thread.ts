import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { MailThread } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { liveThread } from "@/lib/mail/lookup/statements";
import { mailboxScope } from "@/lib/mail/mailboxes/mailbox-scope";

export const threadNotFound = (ref: string) =>
  new AppError("NOT_FOUND", `Thread ${ref} was not found.`, { fix: "Check the thread id with list_threads (and inboxId, if you passed one)." });

/**
 * A thread the actor may touch: in the named inbox, else in the key's own mailbox, else anywhere in the project,
 * and never in a deleted mailbox. Outside that it is NOT_FOUND like a thread that does not exist.
 */
export async function findThread(db: Executor, actor: Actor, threadId: string, inboxId?: string): Promise<MailThread> {
  const { mailboxId } = await mailboxScope(db, actor, inboxId);
  const [thread] = await liveThread(db, actor.projectId, threadId, mailboxId);
  if (!thread) throw threadNotFound(threadId);
  return thread;
}
