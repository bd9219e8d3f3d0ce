import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailMessages, mailThreads, messageColumns } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { quarantineCategories } from "@/lib/mail/quarantine/quarantine-categories";

const notFound = (id: string) =>
  new AppError("NOT_FOUND", `Message ${id} was not found.`, { fix: "Pick a message from GET /api/v1/owner/quarantine (the Quarantine screen)." });

/**
 * A quarantined message of the actor's project, locked with its thread for a release or a delete. The thread is
 * locked first, as inbound mail does (its summary UPDATE, then the message INSERT), so the summary rebuilt after
 * the change sees every message committed before it and none arrives halfway. Its mailbox is held (FOR SHARE) and
 * must be live, as the Quarantine list shows only live mailboxes' mail: releasing into a deleted mailbox would tell
 * subscribers of mail for an address that may be another's by now. Missing, other projects' and deleted mailboxes'
 * ids are NOT_FOUND alike; a message that is not (or no longer) in quarantine is a CONFLICT.
 */
export async function lockQuarantined(tx: Executor, actor: Actor, messageId: string) {
  const mine = and(eq(mailMessages.projectId, actor.projectId), eq(mailMessages.id, messageId));
  const [found] = await tx
    .select({ threadId: mailMessages.threadId })
    .from(mailMessages)
    .innerJoin(mailboxes, and(eq(mailboxes.id, mailMessages.mailboxId), isNull(mailboxes.deletedAt)))
    .where(mine)
    .for("share", { of: mailboxes });
  if (!found) throw notFound(messageId);
  await tx
    .select({ id: mailThreads.id })
    .from(mailThreads)
    .where(and(eq(mailThreads.projectId, actor.projectId), eq(mailThreads.id, found.threadId)))
    .for("update");
  const [message] = await tx.select(messageColumns).from(mailMessages).where(mine).for("update");
  if (!message) throw notFound(messageId);
  if (message.direction !== "inbound" || !(quarantineCategories as readonly string[]).includes(message.category)) {
    throw new AppError("CONFLICT", `Message ${messageId} is not in quarantine.`, {
      fix: "Only spam, blocked and unauthenticated messages can be released or deleted here; it may have been released already.",
    });
  }
  return message;
}
