import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { withdrawRequest } from "@/lib/approvals/withdraw-request";
import type { Executor } from "@/lib/db/client";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { draftFiles } from "@/lib/mail/drafts/draft-view";
import { loadDraft } from "@/lib/mail/drafts/find-draft";
import { releaseDraftFiles } from "@/lib/mail/drafts/release-draft-files";

/**
 * Deletes a draft, idempotently (a draft already gone is `deleted: false`; an unknown inbox is still NOT_FOUND).
 * Its files' blobs go to the trash unless something else uses them (a forward's originals). Its schedule needs no
 * cancelling: the job finds no draft and does nothing. A pending approval request is withdrawn after the row is
 * gone, so the request's settle finds no draft to send.
 */
export async function deleteDraft(db: Executor, o: { actor: Actor; inboxId: string; draftId: string }): Promise<{ draftId: string; deleted: boolean }> {
  const { draft } = await loadDraft(db, o.actor, o.inboxId, o.draftId, { lock: true });
  if (!draft) return { draftId: o.draftId, deleted: false };
  // The owner decides a held draft, as on the Drafts screen: a rejection tells the agent (draft.rejected); a deletion
  // by the owner's credentials would only withdraw the request.
  if (o.actor.type === "owner" && draft.sendStatus === "pending_approval") {
    throw new AppError("CONFLICT", `Draft ${draft.id} is awaiting approval: it cannot be deleted.`, { fix: "Approve or reject it first." });
  }
  const files = (await draftFiles(db, draft.projectId, [draft.id])).get(draft.id) ?? [];
  await db.delete(mailDrafts).where(and(eq(mailDrafts.projectId, draft.projectId), eq(mailDrafts.id, draft.id)));
  await releaseDraftFiles(
    db,
    draft.projectId,
    files.map((f) => f.blobKey),
  );
  if (draft.sendStatus === "pending_approval" && draft.approvalRequestId) {
    await withdrawRequest(db, { actor: o.actor, requestId: draft.approvalRequestId, why: `draft ${draft.id} was deleted before a decision.` });
  }
  return { draftId: draft.id, deleted: true };
}
