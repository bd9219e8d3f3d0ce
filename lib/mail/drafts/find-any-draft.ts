import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";

/**
 * A draft by id alone (REST `GET /drafts/{draft_id}`), in a live mailbox of the project and, for a restricted key,
 * in its own mailbox: any other is NOT_FOUND, like a draft that does not exist.
 */
export async function findAnyDraft(db: Executor, actor: Actor, draftId: string): Promise<MailDraft> {
  const [row] = await db
    .select({ draft: mailDrafts })
    .from(mailDrafts)
    .innerJoin(mailboxes, and(eq(mailboxes.id, mailDrafts.mailboxId), isNull(mailboxes.deletedAt)))
    .where(and(eq(mailDrafts.projectId, actor.projectId), eq(mailDrafts.id, draftId), actor.mailboxId ? eq(mailDrafts.mailboxId, actor.mailboxId) : undefined));
  if (!row) throw new AppError("NOT_FOUND", `Draft ${draftId} was not found.`, { fix: "Check the draft id with GET /drafts. A sent draft is gone." });
  return row.draft;
}
