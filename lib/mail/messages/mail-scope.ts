import { and, eq, isNotNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { findMailbox, mailboxScope } from "@/lib/mail/mailboxes/mailbox-scope";
import type { MailScope } from "@/lib/mail/messages/match-filters";

/**
 * Reads a page of a list or search of mail where the actor may look, from mailboxScope (the one resolver of a key's
 * restriction): the named or restricted mailbox, or the whole project minus its deleted mailboxes.
 *
 * A mailbox named by id is not looked up first: the page's own statement checks it (scopeCondition: a live
 * mailbox of the project), so a page with rows proves it exists, and only an empty page asks findMailbox whether
 * the mailbox is missing (NOT_FOUND, thrown) or just empty. One round trip instead of two for most pages.
 */
export async function readInScope<T>(db: Executor, actor: Actor, inboxId: string | undefined, read: (scope: MailScope) => Promise<T[]>): Promise<T[]> {
  if (inboxId === undefined || inboxId.includes("@") || (actor.mailboxId && inboxId !== actor.mailboxId)) {
    return read(await mailScope(db, actor, inboxId));
  }
  const rows = await read({ projectId: actor.projectId, mailboxId: inboxId, deletedMailboxIds: [] });
  if (rows.length === 0) await findMailbox(db, actor, inboxId);
  return rows;
}

/** The scope resolved beforehand: the deleted mailboxes of a project-wide read are looked up (a short list, usually empty). */
async function mailScope(db: Executor, actor: Actor, inboxId: string | undefined): Promise<MailScope> {
  const { mailboxId } = await mailboxScope(db, actor, inboxId);
  if (mailboxId) return { projectId: actor.projectId, mailboxId, deletedMailboxIds: [] };
  const deleted = await db
    .select({ id: mailboxes.id })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, actor.projectId), isNotNull(mailboxes.deletedAt)));
  return { projectId: actor.projectId, mailboxId: null, deletedMailboxIds: deleted.map((d) => d.id) };
}
