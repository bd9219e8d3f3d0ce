import { and, count, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailDomains } from "@/lib/db/schema/mail";
import { AppError, notFound } from "@/lib/errors";

/** Removes a custom domain; refused while live mailboxes use it (their mail would silently stop). */
export async function removeDomain(db: Executor, opts: { actor: Actor; domainId: string }) {
  const [d] = await db
    .select()
    .from(mailDomains)
    .where(and(eq(mailDomains.id, opts.domainId), eq(mailDomains.projectId, opts.actor.projectId)));
  if (!d) throw notFound(`Domain ${opts.domainId}`, "Only custom domains of this project can be removed.");
  const [used] = await db
    .select({ n: count() })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, opts.actor.projectId), eq(mailboxes.domainId, d.id), isNull(mailboxes.deletedAt)));
  if (used.n > 0) {
    throw new AppError("CONFLICT", `${d.domain} still has ${used.n} mailbox${used.n === 1 ? "" : "es"}.`, { fix: "Delete or move its mailboxes first." });
  }
  // Only if still there: the read above does not lock, so of removals racing each found it and answered it removed
  // (each ledgered as the removal); the row lock makes the others find it gone.
  const [removed] = await db
    .delete(mailDomains)
    .where(and(eq(mailDomains.projectId, opts.actor.projectId), eq(mailDomains.id, d.id)))
    .returning({ id: mailDomains.id });
  if (!removed) throw notFound(`Domain ${opts.domainId}`, "Only custom domains of this project can be removed.");
  return { domain: d.domain };
}
