import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { mailboxes } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { stableJson } from "@/lib/json/stable-json";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { draftAction } from "@/lib/mail/drafts/draft-action";
import { draftAuthor, sendDraft } from "@/lib/mail/drafts/send-draft";

/**
 * The draft a send_draft request holds, locked. A decision takes it before the request's row, as delete_draft's
 * withdrawal does (draft, then request): taken the other way round, an approval and a withdrawal at once deadlocked.
 */
export async function lockHeldDraft(tx: Executor, r: Pick<ApprovalRequest, "id" | "projectId" | "payload">): Promise<MailDraft | undefined> {
  const draftId = (r.payload as { draft_id?: string } | null)?.draft_id;
  if (!draftId) return undefined;
  const [draft] = await tx
    .select()
    .from(mailDrafts)
    .where(and(eq(mailDrafts.projectId, r.projectId), eq(mailDrafts.id, draftId), eq(mailDrafts.approvalRequestId, r.id)))
    .for("update");
  return draft;
}

/**
 * With the owner's decision on a held draft, in the deciding transaction (beside settleEmailBatch): approved and
 * still exactly what was shown → sent through the one send path (origin `approved`: the policy is not applied
 * again), and the draft is deleted; rejected, expired or changed → `send_status: rejected` with the owner's
 * comment as `send_reason`, and a `draft.rejected` event. A send that fails its checks now (a list entry added
 * meanwhile, the quota used up, its inbox deleted) leaves the draft `failed` with the reason, and nothing queued.
 */
export async function settleDraftApproval(tx: Executor, r: ApprovalRequest): Promise<"sent" | "rejected" | "failed" | "none"> {
  const draft = await lockHeldDraft(tx, r);
  if (draft?.sendStatus !== "pending_approval") return "none";
  const unchanged = stableJson(await draftAction(tx, draft)) === stableJson(r.payload);
  if (r.status === "approved" && unchanged) {
    const [mailbox] = await tx
      .select()
      .from(mailboxes)
      .where(and(eq(mailboxes.projectId, r.projectId), eq(mailboxes.id, draft.mailboxId)));
    // Its inbox deleted meanwhile (a decision racing delete_inbox's withdrawal): the address may be another's now.
    if (!mailbox || mailbox.deletedAt) {
      await stop(tx, draft, "failed", "Approved, but its inbox was deleted.");
      return "failed";
    }
    try {
      // A savepoint: a refusal found after the message was queued (the quota is the send's last write) must leave
      // nothing of it behind, only the draft's `failed`, in the deciding transaction that goes on and commits.
      await tx.transaction((sp) => sendDraft(sp, { actor: draftAuthor(draft), mailbox, draft, origin: "approved" }));
      return "sent";
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await stop(tx, draft, "failed", `Approved, but the send was refused: ${err.message}`);
      return "failed";
    }
  }
  const why =
    r.status === "approved"
      ? "The draft changed after it was shown for approval."
      : r.status === "expired"
        ? "Nobody decided before the approval request expired."
        : (r.comment ?? "The owner rejected it.");
  await stop(tx, draft, "rejected", why);
  return "rejected";
}

async function stop(tx: Executor, draft: MailDraft, status: "rejected" | "failed", reason: string): Promise<void> {
  await tx
    .update(mailDrafts)
    .set({ sendStatus: status, sendReason: reason.slice(0, 1000), labels: sql`${mailDrafts.labels} - 'pending_approval'`, updatedAt: sql`now()` })
    .where(and(eq(mailDrafts.projectId, draft.projectId), eq(mailDrafts.id, draft.id)));
  if (status !== "rejected") return;
  await emitMailEvent(tx, {
    projectId: draft.projectId,
    mailboxId: draft.mailboxId,
    type: "draft.rejected",
    messageId: null,
    threadId: draft.threadId,
    draftId: draft.id,
    summary: { from: null, to: [...draft.to, ...draft.cc], subject: draft.subject, preview: null, labels: draft.labels },
  });
}
