import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";

/** What the keys table shows for a key's mailbox restriction: the address, or that the mailbox was deleted since. */
export interface KeyRestriction {
  address: string;
  deleted: boolean;
}

/**
 * The mailboxes keys are restricted to, by id, in one query. A deleted mailbox stays listed (marked): its keys can
 * then reach no mailbox at all, which the owner should see rather than a key that looks unrestricted.
 */
export async function keyRestrictions(db: Executor, projectId: string, mailboxIds: readonly (string | null)[]): Promise<Map<string, KeyRestriction>> {
  const ids = [...new Set(mailboxIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: mailboxes.id, address: mailboxes.address, deletedAt: mailboxes.deletedAt })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, projectId), inArray(mailboxes.id, ids)));
  return new Map(rows.map((r) => [r.id, { address: r.address, deleted: r.deletedAt !== null }]));
}
