import { and, eq, isNotNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { mailboxScope } from "@/lib/mail/mailboxes/mailbox-scope";
import type { MailScope } from "@/lib/mail/messages/match-filters";

/**
 * Where a list or search of mail looks, from mailboxScope (the one resolver of a key's restriction): the named or
 * restricted mailbox, or the whole project minus its deleted mailboxes (looked up here: a short list, usually empty).
 */
export async function mailScope(db: Executor, actor: Actor, inboxId: string | undefined): Promise<MailScope> {
  const { mailboxId } = await mailboxScope(db, actor, inboxId);
  if (mailboxId) return { projectId: actor.projectId, mailboxId, deletedMailboxIds: [] };
  const deleted = await db
    .select({ id: mailboxes.id })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, actor.projectId), isNotNull(mailboxes.deletedAt)));
  return { projectId: actor.projectId, mailboxId: null, deletedMailboxIds: deleted.map((d) => d.id) };
}
