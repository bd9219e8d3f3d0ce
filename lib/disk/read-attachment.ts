import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { diskAttachments, type DiskAttachment } from "@/lib/db/schema/disk";

/** An inbound email attachment, read by file_get / file_url / email_send as `evt_…/name`. */
export async function findAttachment(db: Executor, opts: { projectId: string; eventId: string; name: string }): Promise<DiskAttachment | null> {
  const [row] = await db
    .select()
    .from(diskAttachments)
    .where(and(eq(diskAttachments.projectId, opts.projectId), eq(diskAttachments.eventId, opts.eventId), eq(diskAttachments.name, opts.name)));
  return row ?? null;
}

/** The attachments of one event, for the event's payload (`attachments: [{name, path, size_bytes, content_type}]`). */
export async function listAttachments(db: Executor, opts: { projectId: string; eventId: string }) {
  const rows = await db
    .select()
    .from(diskAttachments)
    .where(and(eq(diskAttachments.projectId, opts.projectId), eq(diskAttachments.eventId, opts.eventId)));
  return rows.map((r) => ({ name: r.name, path: `${r.eventId}/${r.name}`, size_bytes: r.sizeBytes, content_type: r.contentType }));
}
