import { and, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailDomains, mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { RESERVED } from "@/lib/mail/project-address";

/**
 * The Mailboxes screens' writes, until createMailbox/deleteMailbox and the label changes land in lib/mail; every
 * statement filters by the owner's project. The owner action around each call writes the ledger entry.
 */

/** Labels the store sets itself: the owner edits the rest (trash and read have their own buttons). */
export const SYSTEM_LABELS = new Set(["received", "sent", "unread", "trash", "spam", "blocked", "unauthenticated", "draft", "queued", "failed", "bounced"]);
export const LABEL_RE = /^[a-z0-9][a-z0-9._:/-]{0,63}$/;

export function usernameProblem(u: string): string | null {
  if (u.length < 1 || u.length > 64) return "must be 1 to 64 characters";
  if (/[A-Z]/.test(u)) return "must be lower case (letters a-z)";
  if (!/^[a-z0-9._-]+$/.test(u)) return "may contain only a-z, 0-9, '.', '_' and '-'";
  if (/^[.-]|[.-]$/.test(u) || u.includes("..")) return "may not start or end with '.' or '-', nor contain '..'";
  if (RESERVED.has(u)) return `'${u}' is reserved`;
  return null;
}

/** A mailbox on MAIL_DOMAIN or on one of the project's verified domains. */
export async function createOwnerMailbox(db: Executor, o: { actor: Actor; username: string; domainId: string; displayName: string | null }) {
  const problem = usernameProblem(o.username);
  if (problem) throw fieldError("username", problem);
  const def = await ensureDefaultDomain(db);
  const [domain] =
    o.domainId === def.id
      ? [def]
      : await db
          .select()
          .from(mailDomains)
          .where(and(eq(mailDomains.id, o.domainId), eq(mailDomains.projectId, o.actor.projectId)));
  if (!domain) throw fieldError("domain", "not a domain of this project");
  if (domain.id !== def.id && !domain.verifiedAt) {
    throw new AppError("CONFLICT", `${domain.domain} is not verified yet.`, { fix: "Verify the domain's DNS on the Domains screen." });
  }
  const address = `${o.username}@${domain.domain}`;
  const [row] = await db
    .insert(mailboxes)
    .values({ id: newId("mbx"), projectId: o.actor.projectId, domainId: domain.id, localPart: o.username, address, displayName: o.displayName })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError("CONFLICT", `${address} is taken.`, { fix: "Choose another username." });
  return row;
}

/** Soft delete (its mail stays for the retention jobs); the project address is not deletable here. */
export async function deleteOwnerMailbox(db: Executor, o: { actor: Actor; mailboxId: string }) {
  const [row] = await db
    .update(mailboxes)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(mailboxes.id, o.mailboxId), eq(mailboxes.projectId, o.actor.projectId), isNull(mailboxes.deletedAt), eq(mailboxes.isDefault, false)))
    .returning({ id: mailboxes.id, address: mailboxes.address });
  if (!row) throw new AppError("NOT_FOUND", "That mailbox was not found, or it is the project address (which stays).");
  return row;
}

/**
 * Adds and removes labels on every message of a thread, then recomputes the thread's label union and visible_at
 * (hidden once every message is trash or not normal mail), the same summary the store keeps.
 */
export async function changeThreadLabels(db: Executor, o: { actor: Actor; threadId: string; add: string[]; remove: string[] }) {
  const [thread] = await db
    .select({ id: mailThreads.id })
    .from(mailThreads)
    .innerJoin(mailboxes, eq(mailboxes.id, mailThreads.mailboxId))
    .where(and(eq(mailThreads.id, o.threadId), eq(mailThreads.projectId, o.actor.projectId), isNull(mailboxes.deletedAt)));
  if (!thread) throw new AppError("NOT_FOUND", "That thread was not found.");
  const remove = o.remove.filter((l) => !o.add.includes(l));
  await db
    .update(mailMessages)
    .set({
      labels: sql`(select coalesce(jsonb_agg(distinct l order by l), '[]'::jsonb) from jsonb_array_elements_text(${mailMessages.labels} || ${JSON.stringify(o.add)}::jsonb) as x(l) where not (${JSON.stringify(remove)}::jsonb ? l))`,
      updatedAt: new Date(),
    })
    .where(and(eq(mailMessages.threadId, thread.id), eq(mailMessages.projectId, o.actor.projectId)));
  const [updated] = await db
    .update(mailThreads)
    .set({
      labels: sql`(select coalesce(jsonb_agg(distinct l order by l), '[]'::jsonb) from mail_messages m, jsonb_array_elements_text(m.labels) as x(l) where m.thread_id = ${thread.id})`,
      visibleAt: sql`(select max(m.msg_at) from mail_messages m where m.thread_id = ${thread.id} and m.category = 'normal' and not m.labels @> '["trash"]'::jsonb)`,
      updatedAt: new Date(),
    })
    .where(and(eq(mailThreads.id, thread.id), eq(mailThreads.projectId, o.actor.projectId)))
    .returning({ id: mailThreads.id, labels: mailThreads.labels });
  return updated;
}
