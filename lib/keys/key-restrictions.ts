import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";

/** What the keys table shows for a key's mailbox restriction: the address, or that the mailbox was deleted since. */
export interface KeyRestriction {
  address: string;
  deleted: boolean;
}

/**
 * For an authentication that left-joins the key's (or grant's) mailbox: whether it was deleted since. Such a key
 * is usable only for whoami (design §2.6); deleteMailbox empties the auth caches, so this holds at once.
 */
export const mailboxGone = sql<boolean>`${mailboxes.deletedAt} is not null`;

/** The refusal of anything but whoami to such a key, `what` naming what it asked for (a tool, the live stream). */
export const restrictionDeleted = (what: string) =>
  new AppError("missing_permission", `This key was restricted to a mailbox that has been deleted: it may call whoami, not ${what}.`, {
    fix: "Ask the owner for a key restricted to a live mailbox, or for one without a restriction (API keys screen).",
  });

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
