import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { downloadUrl } from "@/lib/disk/blob-urls";
import { listAttachments } from "@/lib/disk/read-attachment";
import { mailHtmlUrl } from "@/lib/mail/http/mail-html-url";

/** inbox_claim's signed URLs live one hour (spec). */
export const EMAIL_LINK_TTL_S = 3600;

/**
 * For inbox_claim on an `email.received` event: signed URLs (1 hour, no key needed) for the message's HTML and each
 * attachment, or null when the event is not a received mail. Attachment downloads count toward the disk's 5 GB a
 * month like file_get's.
 */
export async function emailEventLinks(db: Executor, opts: { projectId: string; eventId: string; now?: number }) {
  const [m] = await db
    .select({ id: mailMessages.id, hasHtml: sql<boolean>`(${mailMessages.html} is not null)` })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, opts.projectId), eq(mailMessages.eventId, opts.eventId)))
    .limit(1);
  if (!m) return null;
  const expiresAt = new Date((opts.now ?? Date.now()) + EMAIL_LINK_TTL_S * 1000);
  const attachments = await listAttachments(db, { projectId: opts.projectId, eventId: opts.eventId });
  return {
    html_url: m.hasHtml ? mailHtmlUrl(opts.projectId, m.id, expiresAt) : null,
    attachments: attachments.map((a) => ({ ...a, url: downloadUrl({ a: [opts.projectId, opts.eventId, a.name] }, expiresAt) })),
    expires_at: expiresAt.toISOString(),
  };
}
