import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";

export const draftNotFound = (id: string) =>
  new AppError("NOT_FOUND", `Draft ${id} was not found in this inbox.`, {
    fix: "Check the draft id with list_drafts. A sent draft is gone: its message is in the thread (list_messages).",
  });

/**
 * A draft of a mailbox the actor may use (findMailbox applies the key's restriction), or null. `lock` takes the row
 * for the rest of the transaction: a change, a send and the schedule's job then happen one after the other.
 */
export async function loadDraft(
  db: Executor,
  actor: Actor,
  inboxId: string,
  draftId: string,
  opts: { lock?: boolean } = {},
): Promise<{ mailbox: Mailbox; draft: MailDraft | null }> {
  const mailbox = await findMailbox(db, actor, inboxId);
  const q = db
    .select()
    .from(mailDrafts)
    .where(and(eq(mailDrafts.projectId, actor.projectId), eq(mailDrafts.mailboxId, mailbox.id), eq(mailDrafts.id, draftId)));
  const [draft] = opts.lock ? await q.for("update") : await q;
  return { mailbox, draft: draft ?? null };
}

/** As loadDraft, but a missing draft is NOT_FOUND. */
export async function findDraft(db: Executor, actor: Actor, inboxId: string, draftId: string, opts: { lock?: boolean } = {}) {
  const found = await loadDraft(db, actor, inboxId, draftId, opts);
  if (!found.draft) throw draftNotFound(draftId);
  return { mailbox: found.mailbox, draft: found.draft };
}

/** A draft that is being sent or waits for the owner is frozen: what was shown for approval must be what goes out. */
export function assertEditable(draft: MailDraft, doing: string): void {
  if (draft.sendStatus !== "sending" && draft.sendStatus !== "pending_approval") return;
  const why = draft.sendStatus === "sending" ? "is being sent" : "is waiting for the owner's approval";
  throw new AppError("CONFLICT", `Draft ${draft.id} ${why}: it cannot ${doing} now.`, {
    fix:
      draft.sendStatus === "sending"
        ? "Wait a moment and check it with get_draft."
        : "Wait for the owner's decision (get_draft shows it), or delete the draft to withdraw the request.",
  });
}
