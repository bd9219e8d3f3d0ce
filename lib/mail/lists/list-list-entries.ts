import { and, getTableColumns, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailListEntries, type MailListEntry } from "@/lib/db/schema/mail";
import { inList, type ListDirection, type ListType } from "@/lib/mail/lists/list-entry-statements";
import { listScope } from "@/lib/mail/lists/list-scope";

/** One page of a list, newest entries first, `limit` rows after `after`. */
export async function listListEntries(
  db: Executor,
  opts: { actor: Actor; inboxId?: string; direction: ListDirection; type: ListType; limit: number; after: PageKey | null },
): Promise<{ mailboxId: string | null; rows: Array<MailListEntry & { pageAt: string }> }> {
  const { mailboxId } = await listScope(db, opts.actor, opts.inboxId);
  const where: SQL[] = [inList({ projectId: opts.actor.projectId, mailboxId, direction: opts.direction, type: opts.type })];
  if (opts.after) where.push(keysetAfter(mailListEntries.createdAt, mailListEntries.id, opts.after, false));
  const rows = await db
    .select({ ...getTableColumns(mailListEntries), pageAt: keysetAt(mailListEntries.createdAt) })
    .from(mailListEntries)
    .where(and(...where))
    .orderBy(...keysetOrder(mailListEntries.createdAt, mailListEntries.id, false))
    .limit(opts.limit);
  return { mailboxId, rows };
}
