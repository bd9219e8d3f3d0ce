import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailMessages, mailThreads, type Mailbox } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { fieldError } from "@/lib/disk/field-error";
import { isProtectedLabel } from "@/lib/mail/labels/system-labels";
import { type SendOrigin, type SendOutcome, sendFromMailbox } from "@/lib/mail/send/send-from-mailbox";
import type { SendRequest } from "@/lib/mail/send/send-request";

/**
 * A draft as a send: its content, its files by reference, its thread; system labels (`scheduled`) stay behind. A
 * reply whose thread was erased since (its messages deleted) starts a new one, still citing what it answered in its
 * References, so the recipient's client threads it as before. The thread is held (KEY SHARE) until the send
 * commits, so an erasure cannot take it in between.
 */
export async function draftRequest(db: Executor, draft: MailDraft, labels: { add?: string[]; remove?: string[] } = {}): Promise<SendRequest> {
  const [files, [thread]] = await Promise.all([
    db
      .select()
      .from(mailAttachments)
      .where(and(eq(mailAttachments.projectId, draft.projectId), eq(mailAttachments.draftId, draft.id))),
    draft.threadId
      ? db
          .select({ id: mailThreads.id })
          .from(mailThreads)
          .where(and(eq(mailThreads.projectId, draft.projectId), eq(mailThreads.id, draft.threadId)))
          .for("key share")
      : [],
  ]);
  const remove = new Set(labels.remove ?? []);
  return {
    kind: draft.kind,
    to: draft.to,
    cc: draft.cc,
    bcc: draft.bcc,
    replyTo: draft.replyTo,
    subject: draft.subject ?? "",
    text: draft.text,
    html: draft.html,
    labels: [...new Set([...draft.labels.filter((l) => !isProtectedLabel(l)), ...(labels.add ?? [])])].filter((l) => !remove.has(l)),
    headers: draft.customHeaders,
    attachments: [],
    kept: files.map((f) => ({
      name: f.name,
      contentType: f.contentType,
      sizeBytes: f.sizeBytes,
      blobKey: f.blobKey,
      contentId: f.contentId,
      inline: f.inline,
    })),
    thread: thread ? { id: thread.id, inReplyTo: draft.inReplyTo, references: draft.references, inReplyToMessageId: draft.inReplyToMessageId } : null,
    // A plain draft's own References (create_draft `references`) have no thread to travel with; nor have those of a
    // reply whose thread is gone.
    references: thread ? undefined : draft.references,
    inReplyToMessageId: draft.threadId && !thread ? null : draft.inReplyToMessageId,
    forwardOfMessageId: draft.forwardOfMessageId,
    replyAll: draft.replyAll,
  };
}

/**
 * Sends a draft through the one send path (send_draft, its schedule, the owner's approval). Sent: the draft is
 * deleted (AgentMail), its files now belong to the message. Held for approval: the draft itself waits.
 */
export async function sendDraft(
  tx: Executor,
  o: { actor: Actor; mailbox: Mailbox; draft: MailDraft; origin: SendOrigin; labels?: { add?: string[]; remove?: string[] } },
): Promise<SendOutcome> {
  const request = await draftRequest(tx, o.draft, o.labels);
  if (request.to.length + request.cc.length + request.bcc.length === 0) {
    throw fieldError("to", `draft ${o.draft.id} has no recipients`, "Add recipients with update_draft, then send it.");
  }
  const outcome = await sendFromMailbox(tx, { actor: o.actor, mailbox: o.mailbox, request, origin: o.origin, tool: "send_draft", draft: o.draft });
  if ("sent" in outcome) {
    await tx.delete(mailDrafts).where(and(eq(mailDrafts.projectId, o.draft.projectId), eq(mailDrafts.id, o.draft.id)));
    // The draft's clientId outlives it on its message: create_draft's retry is then refused, not sent again.
    if (o.draft.clientId !== null) {
      await tx
        .update(mailMessages)
        .set({ draftClientId: o.draft.clientId })
        .where(and(eq(mailMessages.projectId, o.draft.projectId), eq(mailMessages.id, outcome.sent.messageId)));
    }
  }
  return outcome;
}

/** The actor a draft is sent as when nobody is calling (its schedule, the owner's approval): its author's key. */
export function draftAuthor(draft: MailDraft): Actor {
  return { type: "key", projectId: draft.projectId, id: draft.keyId, keyId: draft.keyId, scopes: [], agent: draft.agent, platform: null, via: "system" };
}
