import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailDomains } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { RESERVED } from "@/lib/mail/project-address";

/**
 * The Mailboxes screens' writes, until createMailbox/deleteMailbox and the label changes land in lib/mail; every
 * statement filters by the owner's project. The owner action around each call writes the ledger entry.
 */

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
