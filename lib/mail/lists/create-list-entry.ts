import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailListEntries, type MailListEntry } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { entryTypeOf } from "@/lib/mail/lists/list-entry-value";
import { inList } from "@/lib/mail/lists/list-entry-statements";
import type { ListEntryRef } from "@/lib/mail/lists/find-list-entry";
import { listScope } from "@/lib/mail/lists/list-scope";

/**
 * create_list_entry. An entry already on the list is returned as it is (its first reason kept), not refused: the
 * agent wanted it listed, and it is. The unique index decides under concurrency.
 */
export async function createListEntry(
  db: Executor,
  opts: { actor: Actor; reason?: string } & ListEntryRef,
): Promise<{ entry: MailListEntry; mailboxId: string | null; created: boolean }> {
  const { mailboxId } = await listScope(db, opts.actor, opts.inboxId);
  const list = { projectId: opts.actor.projectId, mailboxId, direction: opts.direction, type: opts.type };
  const [row] = await db
    .insert(mailListEntries)
    .values({ id: newId("mle"), ...list, entry: opts.entry, entryType: entryTypeOf(opts.entry), reason: opts.reason ?? null })
    .onConflictDoNothing()
    .returning();
  if (row) return { entry: row, mailboxId, created: true };
  const [existing] = await db
    .select()
    .from(mailListEntries)
    .where(and(inList(list), eq(mailListEntries.entry, opts.entry)))
    .limit(1);
  return { entry: existing, mailboxId, created: false };
}
