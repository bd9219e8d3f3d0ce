import { asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailBatches, mailMessages, messageColumns } from "@/lib/db/schema/mail";
import { sha256Hex } from "@/lib/crypto/hash";

/**
 * Exactly what an email_send batch will send, read back from the stored messages: recipients, subject, body hashes
 * and the attachments' stored copies. It is what the person approves (the request's payload) and what is checked
 * again before the batch is released, so a changed message can never go out under an approval.
 */
export async function emailAction(db: Executor, batchId: string) {
  const [batch] = await db.select().from(mailBatches).where(eq(mailBatches.id, batchId));
  const messages = await db.select(messageColumns).from(mailMessages).where(eq(mailMessages.batchId, batchId)).orderBy(asc(mailMessages.id));
  const attachments = messages.length
    ? await db
        .select()
        .from(mailAttachments)
        .where(
          inArray(
            mailAttachments.messageId,
            messages.map((m) => m.id),
          ),
        )
    : [];
  const first = messages[0];
  return {
    tool: "email_send",
    batch_id: batchId,
    key_id: batch?.keyId ?? null,
    to: messages.map((m) => m.to[0]).sort(),
    subject: first?.subject ?? null,
    text_sha256: first?.text !== null && first?.text !== undefined ? sha256Hex(first.text) : null,
    html_sha256: first?.html ? sha256Hex(first.html) : null,
    // Every message of a batch must carry the same body and files as the first: otherwise the hash differs.
    uniform: messages.every((m) => m.subject === first.subject && m.text === first.text && m.html === first.html && m.replyToInbox === first.replyToInbox),
    reply_to_inbox: first?.replyToInbox ?? null,
    attachments: attachments
      .filter((a) => a.messageId === first?.id)
      .map((a) => ({ name: a.name, content_type: a.contentType, size_bytes: a.sizeBytes, blob: a.blobKey }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    attachment_count: attachments.length,
  };
}
