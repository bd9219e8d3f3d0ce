import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments } from "@/lib/db/schema/mail";
import { attachmentView, type AttachmentView } from "@/lib/mail/messages/message-view";

/** Attachment metadata of these messages in one query, grouped by message (no bytes, no blob keys). */
export async function attachmentsOf(db: Executor, projectId: string, messageIds: readonly string[]): Promise<Map<string, AttachmentView[]>> {
  const byMessage = new Map<string, AttachmentView[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .select({
      id: mailAttachments.id,
      messageId: mailAttachments.messageId,
      name: mailAttachments.name,
      contentType: mailAttachments.contentType,
      sizeBytes: mailAttachments.sizeBytes,
      inline: mailAttachments.inline,
    })
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, projectId), inArray(mailAttachments.messageId, [...messageIds])))
    .orderBy(asc(mailAttachments.messageId), asc(mailAttachments.createdAt), asc(mailAttachments.id));
  for (const r of rows) {
    const list = byMessage.get(r.messageId) ?? [];
    list.push(attachmentView(r));
    byMessage.set(r.messageId, list);
  }
  return byMessage;
}
