import { and, eq, isNull, sql } from "drizzle-orm";
import { draftFiles } from "@/lib/mail/drafts/draft-view";
import { releaseDraftFiles } from "@/lib/mail/drafts/release-draft-files";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { type MailDraft, mailDrafts } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { scheduleDraft } from "@/lib/mail/drafts/schedule-draft";
import { sendDraft } from "@/lib/mail/drafts/send-draft";
import type { SendOutcome } from "@/lib/mail/send/send-from-mailbox";

/** The ops the draft tools write (toolOp of create/update/send/delete_draft), so the ledger reads alike either way. */
export const DRAFT_OPS = { create: "create.draft", update: "update.draft", send: "send.draft", delete: "delete.draft" } as const;

/**
 * A draft of the project, locked for the change; NOT_FOUND when it is gone (sent, deleted). `seen` is the version
 * the owner's screen showed: an agent may have changed the draft since (update_draft), and sending, deleting or
 * saving over what the owner never saw is CONFLICT.
 */
async function lockDraft(db: Executor, actor: Actor, draftId: string, seen?: number): Promise<MailDraft> {
  const [draft] = await db
    .select()
    .from(mailDrafts)
    .where(and(eq(mailDrafts.projectId, actor.projectId), eq(mailDrafts.id, draftId)))
    .for("update");
  if (!draft) throw new AppError("NOT_FOUND", `Draft ${draftId} not found: it was sent or deleted.`, { fix: "Reload the Drafts screen." });
  if (seen !== undefined && draft.version !== seen) {
    throw new AppError("CONFLICT", `Draft ${draftId} changed since you opened it (version ${draft.version} now, ${seen} shown): nothing was done.`, {
      fix: "Reload the draft to see what changed, then try again.",
    });
  }
  return draft;
}

/** A held or sending draft is frozen: the owner decides a held one (approve or reject), never edits it. */
function refuseFrozen(draft: MailDraft, what: string) {
  if (draft.sendStatus === "pending_approval") {
    throw new AppError("CONFLICT", `Draft ${draft.id} is awaiting approval: it cannot be ${what}.`, { fix: "Approve or reject it first." });
  }
  if (draft.sendStatus === "sending") throw new AppError("CONFLICT", `Draft ${draft.id} is being sent right now.`, { fix: "Wait a moment and reload." });
}

/**
 * "Send now" on the Drafts screen: the one send path with origin `owner`; a schedule left behind finds no draft. A
 * draft of a deleted mailbox is not sent, as its schedule and its approval refuse it: the address may be another's
 * by now. The mailbox is held (FOR SHARE) until the send commits, so a delete_inbox cannot come in between.
 */
export async function ownerSendDraft(db: Executor, o: { actor: Actor; draftId: string; version: number }): Promise<SendOutcome> {
  const draft = await lockDraft(db, o.actor, o.draftId, o.version);
  refuseFrozen(draft, "sent now");
  const [mailbox] = await db
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, draft.projectId), eq(mailboxes.id, draft.mailboxId), isNull(mailboxes.deletedAt)))
    .for("share");
  if (!mailbox) {
    throw new AppError("CONFLICT", `Draft ${draft.id} belongs to an inbox that was deleted: it cannot be sent.`, {
      fix: "Copy its text into a draft of a live inbox, or delete it.",
    });
  }
  return sendDraft(db, { actor: o.actor, mailbox, draft, origin: "owner" });
}

/**
 * "Delete": gone with its file rows (cascade), and their bytes to the trash unless something else uses them, as
 * delete_draft does (the bytes stayed for ever: found by helper-112); a scheduled job made for it then finds nothing.
 */
export async function ownerDeleteDraft(db: Executor, o: { actor: Actor; draftId: string; version: number }): Promise<{ id: string }> {
  const draft = await lockDraft(db, o.actor, o.draftId, o.version);
  refuseFrozen(draft, "deleted");
  const files = (await draftFiles(db, draft.projectId, [draft.id])).get(draft.id) ?? [];
  await db.delete(mailDrafts).where(and(eq(mailDrafts.projectId, draft.projectId), eq(mailDrafts.id, draft.id)));
  await releaseDraftFiles(
    db,
    draft.projectId,
    files.map((f) => f.blobKey),
  );
  return { id: draft.id };
}

/**
 * "Edit" and "Reschedule": recipients, subject and text, and `sendAt` (null unschedules). Every change raises the
 * version, so a job or approval made for the earlier one does nothing. A failed or rejected draft edited becomes an
 * ordinary (or scheduled) draft again.
 */
export async function ownerUpdateDraft(
  db: Executor,
  o: {
    actor: Actor;
    draftId: string;
    version: number;
    patch: { to?: string[]; cc?: string[]; bcc?: string[]; subject?: string; text?: string; sendAt?: Date | null };
  },
): Promise<MailDraft> {
  const draft = await lockDraft(db, o.actor, o.draftId, o.version);
  refuseFrozen(draft, "edited");
  const { sendAt, ...content } = o.patch;
  const at = sendAt === undefined ? draft.sendAt : sendAt;
  if (at && sendAt !== undefined && at.getTime() <= Date.now()) throw new AppError("validation_error", "sendAt: must be in the future.");
  const labels = draft.labels.filter((l) => l !== "scheduled");
  const [row] = await db
    .update(mailDrafts)
    .set({
      ...content,
      sendAt: at,
      sendStatus: at ? "scheduled" : null,
      sendReason: null,
      labels: at ? [...labels, "scheduled"] : labels,
      version: sql`${mailDrafts.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(mailDrafts.projectId, draft.projectId), eq(mailDrafts.id, draft.id)))
    .returning();
  await scheduleDraft(db, row);
  return row;
}

/**
 * "Approve" and "Reject" by draft id (owner REST; the Drafts screen decides through the request's own buttons): the
 * decision goes to the draft's approval request, as on the Approvals screen, and settle-draft-approval.ts acts on
 * it. Answers the message the approval sent, or the draft's state after a rejection.
 */
export async function ownerDecideDraft(
  db: Executor,
  o: { actor: Actor; draftId: string; approve: boolean; comment?: string },
): Promise<{ requestId: string; messageId: string | null; sendStatus: string | null; sendReason: string | null }> {
  const draft = await lockDraft(db, o.actor, o.draftId);
  if (draft.sendStatus !== "pending_approval" || !draft.approvalRequestId) {
    throw new AppError("CONFLICT", `Draft ${draft.id} is not awaiting approval (send_status ${draft.sendStatus ?? "null"}).`, {
      fix: "Only a draft with send_status pending_approval can be approved or rejected; list them with GET /api/v1/drafts?labels=pending_approval.",
    });
  }
  const requestId = draft.approvalRequestId;
  await decideAsOwner(db, {
    actor: o.actor,
    requestId,
    verdict: o.approve ? { outcome: "approve", comment: o.comment } : { outcome: "deny", comment: o.comment },
  });
  const [sent] = await db
    .select({ id: mailMessages.id, sendStatus: mailMessages.sendStatus })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, draft.projectId), eq(mailMessages.draftId, draft.id)))
    .limit(1);
  if (sent) return { requestId, messageId: sent.id, sendStatus: sent.sendStatus, sendReason: null };
  const [after] = await db
    .select({ sendStatus: mailDrafts.sendStatus, sendReason: mailDrafts.sendReason })
    .from(mailDrafts)
    .where(and(eq(mailDrafts.projectId, draft.projectId), eq(mailDrafts.id, draft.id)));
  return { requestId, messageId: null, sendStatus: after?.sendStatus ?? null, sendReason: after?.sendReason ?? null };
}
