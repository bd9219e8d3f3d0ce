import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailListEntries } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { inList } from "@/lib/mail/lists/list-entry-statements";

/**
 * An address Brynth itself puts on a mailbox's send block list — a bounced recipient, one who complained — as a
 * managed entry that delete_list_entry refuses, so an agent cannot mail it again by mistake (AgentMail's
 * suppressions). An entry the agent had made already becomes managed, with this reason. True when the address was
 * not managed before (a repeated report then changes nothing).
 */
export async function blockManaged(tx: Executor, o: { projectId: string; mailboxId: string; address: string; reason: string }): Promise<boolean> {
  if (!o.address.includes("@")) return false;
  const list = { projectId: o.projectId, mailboxId: o.mailboxId, direction: "send" as const, type: "block" as const };
  const [made] = await tx
    .insert(mailListEntries)
    .values({ id: newId("mle"), ...list, entry: o.address, entryType: "email", reason: o.reason, managed: true })
    .onConflictDoNothing()
    .returning({ id: mailListEntries.id });
  if (made) return true;
  const changed = await tx
    .update(mailListEntries)
    .set({ managed: true, reason: o.reason })
    .where(and(inList(list), eq(mailListEntries.entry, o.address), eq(mailListEntries.managed, false)))
    .returning({ id: mailListEntries.id });
  return changed.length > 0;
}
