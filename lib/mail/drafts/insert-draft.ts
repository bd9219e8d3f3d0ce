import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, type Mailbox } from "@/lib/db/schema/mail";
import { type DraftSendStatus, mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { newId } from "@/lib/ids";
import type { SendFiles } from "@/lib/mail/send/resolve-send-attachments";
import type { SendRequest } from "@/lib/mail/send/send-request";
import { storeOutboundFiles } from "@/lib/mail/outbound/store-outbound-files";

/**
 * A draft row and its attachment rows, in the caller's transaction: new files are stored once, kept ones (a
 * forward's originals) point at their existing blobs. Used by create_draft and by a send held for approval.
 */
export async function insertDraft(
  tx: Executor,
  o: {
    actor: Actor;
    mailbox: Mailbox;
    request: SendRequest;
    files: SendFiles;
    sendAt?: Date | null;
    sendStatus?: DraftSendStatus | null;
    clientId?: string | null;
  },
): Promise<MailDraft> {
  const r = o.request;
  // The system labels say what the draft waits for, so list_drafts can filter by them.
  const waits = o.sendStatus === "pending_approval" ? ["pending_approval"] : o.sendAt ? ["scheduled"] : [];
  const labels = [...new Set([...r.labels, ...waits])];
  const [draft] = await tx
    .insert(mailDrafts)
    .values({
      id: newId("drf"),
      projectId: o.mailbox.projectId,
      mailboxId: o.mailbox.id,
      keyId: o.actor.keyId,
      agent: o.actor.agent,
      clientId: o.clientId ?? null,
      kind: r.kind,
      inReplyToMessageId: r.inReplyToMessageId,
      forwardOfMessageId: r.forwardOfMessageId,
      replyAll: r.replyAll,
      threadId: r.thread?.id ?? null,
      to: r.to,
      cc: r.cc,
      bcc: r.bcc,
      replyTo: r.replyTo,
      references: r.thread?.references ?? [],
      inReplyTo: r.thread?.inReplyTo ?? null,
      subject: r.subject,
      text: r.text,
      html: r.html,
      customHeaders: r.headers,
      labels,
      sendAt: o.sendAt ?? null,
      sendStatus: o.sendStatus ?? (o.sendAt ? "scheduled" : null),
    })
    .returning();
  await attachToDraft(tx, draft, o.files);
  return draft;
}

/** Attachment rows of a draft for new files (stored now) and kept blobs. */
export async function attachToDraft(tx: Executor, draft: MailDraft, files: SendFiles): Promise<void> {
  const stored = [...files.kept, ...(await storeOutboundFiles(tx, draft.projectId, files.fresh))];
  if (stored.length === 0) return;
  await tx.insert(mailAttachments).values(stored.map((a) => ({ id: newId("att"), projectId: draft.projectId, draftId: draft.id, ...a })));
}
