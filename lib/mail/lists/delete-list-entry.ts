import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailListEntries } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import type { ListEntryRef } from "@/lib/mail/lists/find-list-entry";
import { inList } from "@/lib/mail/lists/list-entry-statements";
import { listScope } from "@/lib/mail/lists/list-scope";

/**
 * delete_list_entry: idempotent, so an entry that is not (or no longer) on the list is success too. An entry Brynth
 * manages (a bounced recipient's send block) is refused: removing it would let an agent mail a dead address again.
 */
export async function deleteListEntry(db: Executor, opts: { actor: Actor } & ListEntryRef): Promise<{ mailboxId: string | null; removedId: string | null }> {
  const { mailboxId } = await listScope(db, opts.actor, opts.inboxId);
  const here = and(inList({ projectId: opts.actor.projectId, mailboxId, direction: opts.direction, type: opts.type }), eq(mailListEntries.entry, opts.entry));
  const [row] = await db
    .delete(mailListEntries)
    .where(and(here, eq(mailListEntries.managed, false)))
    .returning({ id: mailListEntries.id });
  if (row) return { mailboxId, removedId: row.id };
  const [managed] = await db.select({ reason: mailListEntries.reason }).from(mailListEntries).where(here).limit(1);
  if (managed) {
    throw new AppError(
      "CONFLICT",
      `${opts.entry} is a read-only entry of the ${opts.direction}/${opts.type} list, added by Brynth (${managed.reason ?? "managed"}).`,
      {
        fix: "Do not mail this recipient again. Only the owner can remove a bounced address's entry, from the dashboard.",
        details: { entry: opts.entry, reason: managed.reason, managed: true },
      },
    );
  }
  return { mailboxId, removedId: null };
}
