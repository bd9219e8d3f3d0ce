import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailListEntries, type MailListEntry } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { inList, type ListDirection, type ListType } from "@/lib/mail/lists/list-entry-statements";
import { listScope } from "@/lib/mail/lists/list-scope";

export interface ListEntryRef {
  inboxId?: string;
  direction: ListDirection;
  type: ListType;
  /** Normalized already (listEntryField). */
  entry: string;
}

/** get_list_entry: the entry on that list, else NOT_FOUND. */
export async function findListEntry(db: Executor, opts: { actor: Actor } & ListEntryRef): Promise<MailListEntry> {
  const { mailboxId } = await listScope(db, opts.actor, opts.inboxId);
  const [row] = await db
    .select()
    .from(mailListEntries)
    .where(and(inList({ projectId: opts.actor.projectId, mailboxId, direction: opts.direction, type: opts.type }), eq(mailListEntries.entry, opts.entry)))
    .limit(1);
  if (!row) {
    const where = mailboxId ? `inbox ${opts.inboxId}'s` : "the global";
    throw new AppError("NOT_FOUND", `${opts.entry} is not on ${where} ${opts.direction} ${opts.type} list.`, {
      fix: "See what the list holds with list_list_entries, or add it with create_list_entry.",
    });
  }
  return row;
}
