import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { sources } from "@/lib/db/schema/events";
import { mailboxes, type Mailbox } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { keyCache } from "@/lib/keys/auth-cache";
import { forgetRecipients } from "@/lib/mail/inbound/recipient-cache";
import { findMailbox, requireUnrestricted } from "@/lib/mail/mailboxes/mailbox-scope";
import { withdrawHeldSends } from "@/lib/mail/mailboxes/withdraw-held-sends";
import { grantTokenCache } from "@/lib/oauth/token-cache";

/**
 * delete_inbox: a soft delete that frees the address at once (the unique index covers live mailboxes only). A second
 * delete of the same mailbox succeeds with the same answer, so a retry after a lost response is safe; its threads
 * stay in the store, out of every list, and what it held for approval is withdrawn (withdrawHeldSends). The project
 * address cannot go while the email source receives on it.
 */
export async function deleteMailbox(db: Executor, opts: { actor: Actor; inboxId: string }): Promise<Mailbox> {
  requireUnrestricted(opts.actor, "delete mailboxes");
  const live = await findMailbox(db, opts.actor, opts.inboxId).catch((err) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") return null;
    throw err;
  });
  if (!live) {
    const gone = await deletedMailbox(db, opts.actor.projectId, opts.inboxId);
    if (gone) return gone;
    return findMailbox(db, opts.actor, opts.inboxId); // throws the one NOT_FOUND text
  }
  if (live.isDefault) await refuseWhileEmailSource(db, opts.actor.projectId, live.address);
  const [row] = await db
    .update(mailboxes)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(mailboxes.id, live.id), eq(mailboxes.projectId, opts.actor.projectId), isNull(mailboxes.deletedAt)))
    .returning();
  forgetRecipients(db);
  // Keys and grants restricted to it may call only whoami from now on (design §2.6): their cached rows say otherwise.
  keyCache.invalidate(db);
  grantTokenCache.invalidate(db);
  // A concurrent delete won: its row is the answer (and it withdrew what was held).
  if (!row) return (await deletedMailbox(db, opts.actor.projectId, live.id)) as Mailbox;
  await withdrawHeldSends(db, opts.actor, row);
  return row;
}

/** The most recently deleted mailbox of that id or address (an address may have been reused and deleted again). */
async function deletedMailbox(db: Executor, projectId: string, ref: string): Promise<Mailbox | null> {
  const [row] = await db
    .select()
    .from(mailboxes)
    .where(
      and(
        eq(mailboxes.projectId, projectId),
        ref.includes("@") ? eq(mailboxes.address, sql`lower(${ref})`) : eq(mailboxes.id, ref),
        sql`${mailboxes.deletedAt} is not null`,
      ),
    )
    .orderBy(desc(mailboxes.deletedAt))
    .limit(1);
  return row ?? null;
}

async function refuseWhileEmailSource(db: Executor, projectId: string, address: string): Promise<void> {
  const [source] = await db
    .select({ name: sources.name })
    .from(sources)
    .where(and(eq(sources.projectId, projectId), eq(sources.type, "email"), isNull(sources.removedAt)))
    .limit(1);
  if (!source) return;
  throw new AppError("CONFLICT", `${address} is the project address, and the email source ${source.name} receives on it.`, {
    fix: "Remove the email source first (Sources screen), then delete the inbox.",
  });
}
