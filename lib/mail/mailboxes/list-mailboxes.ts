import { and, eq, getTableColumns, ilike, isNull, or, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailboxes, type Mailbox } from "@/lib/db/schema/mail";

/** `_` and `%` are LIKE wildcards: a search for `a_b` means the characters, not "a, any, b". */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Live mailboxes of the actor's project (only its own for a restricted key), newest first unless ascending, `limit`
 * rows after `after`. `q`: a prefix of the address, of its domain or of a word of the display name.
 */
export async function listMailboxes(
  db: Executor,
  opts: { actor: Actor; limit: number; ascending: boolean; after: PageKey | null; q?: string },
): Promise<Array<Mailbox & { pageAt: string }>> {
  const where: (SQL | undefined)[] = [eq(mailboxes.projectId, opts.actor.projectId), isNull(mailboxes.deletedAt)];
  if (opts.actor.mailboxId) where.push(eq(mailboxes.id, opts.actor.mailboxId));
  if (opts.after) where.push(keysetAfter(mailboxes.createdAt, mailboxes.id, opts.after, opts.ascending));
  if (opts.q !== undefined) {
    // ILIKE folds case itself, as PostgreSQL does; JavaScript's lower case of İ (i + U+0307) matched nothing.
    const q = likeEscape(opts.q);
    where.push(
      or(
        ilike(mailboxes.address, `${q}%`),
        ilike(mailboxes.address, `%@${q}%`),
        ilike(mailboxes.displayName, `${q}%`),
        ilike(mailboxes.displayName, `% ${q}%`),
      ),
    );
  }
  return db
    .select({ ...getTableColumns(mailboxes), pageAt: keysetAt(mailboxes.createdAt) })
    .from(mailboxes)
    .where(and(...where))
    .orderBy(...keysetOrder(mailboxes.createdAt, mailboxes.id, opts.ascending))
    .limit(opts.limit);
}
