import { and, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailThreads, type MailThread } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { mailboxScope } from "@/lib/mail/mailboxes/mailbox-scope";

export const threadNotFound = (ref: string) =>
  new AppError("NOT_FOUND", `Thread ${ref} was not found.`, { fix: "Check the thread id with list_threads (and inboxId, if you passed one)." });

/**
 * A thread the actor may touch: in the named inbox, else in the key's own mailbox, else anywhere in the project,
 * and never in a deleted mailbox. Outside that it is NOT_FOUND like a thread that does not exist.
 */
export async function findThread(db: Executor, actor: Actor, threadId: string, inboxId?: string): Promise<MailThread> {
  const { mailboxId } = await mailboxScope(db, actor, inboxId);
  const [row] = await db
    .select({ thread: mailThreads })
    .from(mailThreads)
    .innerJoin(mailboxes, and(eq(mailboxes.id, mailThreads.mailboxId), isNull(mailboxes.deletedAt)))
    .where(and(eq(mailThreads.projectId, actor.projectId), eq(mailThreads.id, threadId), mailboxId ? eq(mailThreads.mailboxId, mailboxId) : sql`true`))
    .limit(1);
  if (!row) throw threadNotFound(threadId);
  return row.thread;
}
