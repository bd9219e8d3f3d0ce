import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, type MailAttachment } from "@/lib/db/schema/mail";
import type { MailDraft } from "@/lib/db/schema/mail-send";
import type { DraftOutput } from "@/lib/tools/mailboxes/draft-fields";

/** The attachment rows of some drafts, by draft id: in the order they were added, by name within one call. */
export async function draftFiles(db: Executor, projectId: string, draftIds: string[]): Promise<Map<string, MailAttachment[]>> {
  const out = new Map<string, MailAttachment[]>(draftIds.map((id) => [id, []]));
  if (draftIds.length === 0) return out;
  const rows = await db
    .select()
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, projectId), inArray(mailAttachments.draftId, draftIds)))
    .orderBy(asc(mailAttachments.createdAt), asc(mailAttachments.name));
  for (const r of rows) out.get(r.draftId ?? "")?.push(r);
  return out;
}

/** A draft as every draft tool shows it (camelCase; callers see snake_case). */
export function draftView(d: MailDraft, files: readonly MailAttachment[]): DraftOutput {
  return {
    draftId: d.id,
    inboxId: d.mailboxId,
    threadId: d.threadId,
    kind: d.kind,
    to: d.to,
    cc: d.cc,
    bcc: d.bcc,
    replyTo: d.replyTo,
    subject: d.subject,
    text: d.text,
    html: d.html,
    labels: d.labels,
    attachments: files.map((f) => ({ attachmentId: f.id, filename: f.name, contentType: f.contentType, size: f.sizeBytes })),
    inReplyTo: d.inReplyTo,
    references: d.references,
    sendAt: d.sendAt?.toISOString() ?? null,
    sendStatus: d.sendStatus,
    sendReason: d.sendReason,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

/** One draft with its files, viewed. */
export async function viewDraft(db: Executor, d: MailDraft): Promise<DraftOutput> {
  return draftView(d, (await draftFiles(db, d.projectId, [d.id])).get(d.id) ?? []);
}
