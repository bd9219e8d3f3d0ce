import { and, eq, inArray, isNull, or } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailListEntries } from "@/lib/db/schema/mail";

/**
 * The receive lists, project-wide and the mailbox's own: a sender (address or its domain) on a block list is
 * blocked unless also on an allow list. Blocked mail is kept but produces no event.
 */
export async function isBlockedSender(db: Executor, opts: { projectId: string; mailboxId: string; from: string | null }): Promise<boolean> {
  if (!opts.from) return false;
  const address = opts.from.toLowerCase();
  const domain = address.slice(address.lastIndexOf("@") + 1);
  const rows = await db
    .select({ type: mailListEntries.type })
    .from(mailListEntries)
    .where(
      and(
        eq(mailListEntries.projectId, opts.projectId),
        or(isNull(mailListEntries.mailboxId), eq(mailListEntries.mailboxId, opts.mailboxId)),
        eq(mailListEntries.direction, "receive"),
        inArray(mailListEntries.entry, [address, domain]),
      ),
    );
  return rows.some((r) => r.type === "block") && !rows.some((r) => r.type === "allow");
}
