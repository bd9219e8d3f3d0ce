import { and, count, eq, isNotNull, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailDomains } from "@/lib/db/schema/mail";
import { AppError, notFound } from "@/lib/errors";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";

/** Removes a custom domain; refused while live mailboxes use it (their mail would silently stop). */
export async function removeDomain(db: Executor, opts: { actor: Actor; domainId: string }) {
  const [d] = await db
    .select()
    .from(mailDomains)
    .where(and(eq(mailDomains.id, opts.domainId), eq(mailDomains.projectId, opts.actor.projectId)))
    // Locked: a removal racing this one then finds the row gone (404), where each answered it removed and was
    // ledgered as the removal; and a mailbox being created on the domain, which holds the row through its foreign
    // key until it commits, is counted below, where the delete failed on the key as a 500.
    .for("update");
  if (!d) throw notFound(`Domain ${opts.domainId}`, "Only custom domains of this project can be removed.");
  const [used] = await db
    .select({ n: count() })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, opts.actor.projectId), eq(mailboxes.domainId, d.id), isNull(mailboxes.deletedAt)));
  if (used.n > 0) {
    throw new AppError("CONFLICT", `${d.domain} still has ${used.n} mailbox${used.n === 1 ? "" : "es"}.`, { fix: "Delete or move its mailboxes first." });
  }
  // Deleted mailboxes stay (their mail's history) and still named the domain, so the delete failed on the foreign
  // key, a 500, for good (found by helper-111). They send and receive nothing: they move to the default domain's row.
  const fallback = await ensureDefaultDomain(db);
  await db
    .update(mailboxes)
    .set({ domainId: fallback.id })
    .where(and(eq(mailboxes.projectId, opts.actor.projectId), eq(mailboxes.domainId, d.id), isNotNull(mailboxes.deletedAt)));
  await db.delete(mailDomains).where(and(eq(mailDomains.projectId, opts.actor.projectId), eq(mailDomains.id, d.id)));
  return { domain: d.domain };
}
