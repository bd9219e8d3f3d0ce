import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailListEntries } from "@/lib/db/schema/mail";
import type { ListEntryRef } from "@/lib/mail/lists/find-list-entry";
import { inList } from "@/lib/mail/lists/list-entry-statements";
import { listScope } from "@/lib/mail/lists/list-scope";

/** delete_list_entry: idempotent, so an entry that is not (or no longer) on the list is success too. */
export async function deleteListEntry(db: Executor, opts: { actor: Actor } & ListEntryRef): Promise<{ mailboxId: string | null; removedId: string | null }> {
  const { mailboxId } = await listScope(db, opts.actor, opts.inboxId);
  const [row] = await db
    .delete(mailListEntries)
    .where(and(inList({ projectId: opts.actor.projectId, mailboxId, direction: opts.direction, type: opts.type }), eq(mailListEntries.entry, opts.entry)))
    .returning({ id: mailListEntries.id });
  return { mailboxId, removedId: row?.id ?? null };
}
