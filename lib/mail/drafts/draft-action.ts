import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments } from "@/lib/db/schema/mail";
import type { MailDraft } from "@/lib/db/schema/mail-send";
import { sha256Hex } from "@/lib/crypto/hash";
import { describeSend } from "@/lib/mail/send/describe-send";

const sorted = (list: string[]) => [...list].map((a) => a.toLowerCase()).sort();

/**
 * Exactly what a held draft will send (design §2.8): recipients, subject, body hashes, headers, thread and the
 * attachments' stored copies, plus the draft's version. It is the approval request's payload, and it is computed
 * again when the owner decides: only an unchanged draft is sent under the approval.
 */
export async function draftAction(db: Executor, draft: MailDraft) {
  const files = await db
    .select()
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, draft.projectId), eq(mailAttachments.draftId, draft.id)))
    .orderBy(asc(mailAttachments.name));
  return {
    tool: "send_draft",
    draft_id: draft.id,
    version: draft.version,
    mailbox_id: draft.mailboxId,
    key_id: draft.keyId,
    to: sorted(draft.to),
    cc: sorted(draft.cc),
    bcc: sorted(draft.bcc),
    reply_to: sorted(draft.replyTo),
    subject: draft.subject,
    text_sha256: draft.text === null ? null : sha256Hex(draft.text),
    html_sha256: draft.html === null ? null : sha256Hex(draft.html),
    headers: draft.customHeaders,
    thread_id: draft.threadId,
    in_reply_to: draft.inReplyTo,
    attachments: files.map((a) => ({ name: a.name, content_type: a.contentType, size_bytes: a.sizeBytes, blob: a.blobKey })),
  };
}

/** The owner's view of a held draft: what the approval screen, email and Telegram show (describeSend). */
export function describeDraft(draft: MailDraft, files: Array<{ name: string; sizeBytes: number }>) {
  const lines = [
    `From draft ${draft.id}`,
    `To: ${draft.to.join(", ") || "-"}`,
    ...(draft.cc.length ? [`Cc: ${draft.cc.join(", ")}`] : []),
    ...(draft.bcc.length ? [`Bcc: ${draft.bcc.join(", ")}`] : []),
    `Subject: ${draft.subject ?? ""}`,
    ...(files.length ? [`Attachments: ${files.map((f) => `${f.name} (${f.sizeBytes} bytes)`).join(", ")}`] : []),
  ];
  const recipients = [...draft.to, ...draft.cc, ...draft.bcc];
  return describeSend({ subject: draft.subject ?? "(no subject)", recipients, lines, body: draft.text ?? "(HTML only)", html: draft.html });
}
