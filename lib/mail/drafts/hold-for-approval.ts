import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, type Mailbox } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import type { Verdict } from "@/lib/policy/evaluate-policy";
import { createRequest } from "@/lib/approvals/create-request";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { describeDraft, draftAction } from "@/lib/mail/drafts/draft-action";
import { insertDraft } from "@/lib/mail/drafts/insert-draft";
import { sanitizeMailHtml, shownAsText } from "@/lib/mail/http/sanitize-mail-html";
import { holdMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import type { SendFiles } from "@/lib/mail/send/resolve-send-attachments";
import type { SendRequest } from "@/lib/mail/send/send-request";

/** A held draft waits this long for the owner; then its request expires and the draft is rejected. */
const APPROVAL_TTL_MS = 7 * 24 * 3600_000;

/**
 * A send the owner must approve (the mailbox's `approval` policy, or a project policy rule): the send becomes a
 * draft with send_status `pending_approval` — or the draft being sent becomes one — frozen at a new version, and an
 * approvals-module request (`kind: tool`, `action: send_draft`) holds exactly its content (draftAction). The
 * owner decides on the Approvals or Drafts screen, by email or Telegram; settle-draft-approval.ts acts on it.
 */
export async function holdForApproval(
  tx: Executor,
  o: { actor: Actor; mailbox: Mailbox; request: SendRequest; files: SendFiles; draft?: MailDraft; verdict?: Verdict & { version: number } },
): Promise<{ draftId: string; requestId: string }> {
  // A delete_inbox under way either commits first (the send then finds no inbox) or waits, and withdraws this.
  await holdMailbox(tx, o.mailbox);
  let draft: MailDraft;
  if (o.draft) {
    [draft] = await tx
      .update(mailDrafts)
      // A scheduled draft now waits for the owner instead of its time: it leaves the `scheduled` list for the
      // `pending_approval` one.
      .set({
        html: approvableHtml(o.draft.html),
        sendStatus: "pending_approval",
        sendReason: null,
        labels: sql`(${mailDrafts.labels} - 'scheduled' - 'pending_approval') || '["pending_approval"]'::jsonb`,
        version: sql`${mailDrafts.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(mailDrafts.projectId, o.draft.projectId), eq(mailDrafts.id, o.draft.id)))
      .returning();
  } else {
    const request = { ...o.request, html: approvableHtml(o.request.html) };
    draft = await insertDraft(tx, { actor: o.actor, mailbox: o.mailbox, request, files: o.files, sendStatus: "pending_approval" });
  }
  const files = await tx
    .select({ name: mailAttachments.name, sizeBytes: mailAttachments.sizeBytes })
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, draft.projectId), eq(mailAttachments.draftId, draft.id)));
  const request = await createRequest(tx, {
    actor: o.actor,
    kind: "tool",
    action: "send_draft",
    ...describeDraft(draft, files),
    risk: "medium",
    expiresInMs: APPROVAL_TTL_MS,
    payload: await draftAction(tx, draft),
    verdict: o.verdict,
  });
  await tx.update(mailDrafts).set({ approvalRequestId: request.id }).where(eq(mailDrafts.id, draft.id));
  await emitMailEvent(tx, {
    projectId: draft.projectId,
    mailboxId: draft.mailboxId,
    type: "draft.pending_approval",
    messageId: null,
    threadId: draft.threadId,
    draftId: draft.id,
    summary: { from: o.mailbox.address, to: [...draft.to, ...draft.cc], subject: draft.subject, preview: null, labels: draft.labels },
  });
  return { draftId: draft.id, requestId: request.id };
}

/**
 * A held send's HTML is held, and sent, as its approver is shown it: sanitized, as the Drafts screen frames it.
 * Sent as the agent wrote it, a <style> block (which the preview drops, and mail clients apply) showed the owner
 * "Invoice attached as agreed." while the recipient read "Wire 48,000 EUR to IBAN …" (found by helper-117). HTML
 * the preview would only show as text (too large, nested too deeply) cannot be approved at all.
 */
function approvableHtml(html: string | null): string | null {
  if (html === null) return null;
  const why = shownAsText(html);
  if (why) throw fieldError("html", `${why}, so the owner could not see what they approve`, "Send simpler HTML (under 1,000,000 characters), or text only.");
  return sanitizeMailHtml(html).html;
}

/** The spec's answer to a held send: `approval_required`, with the draft id in both message and fix. */
export function approvalRequired(draftId: string): AppError {
  return new AppError("approval_required", `Draft ${draftId} is waiting for the owner's approval; nothing was sent.`, {
    fix: `Tell the human that draft ${draftId} needs approval in Brynth (Mailboxes → Drafts), then stop. Check it later with get_draft.`,
    details: { draft_id: draftId },
  });
}
