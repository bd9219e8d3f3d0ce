import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { diskFiles } from "@/lib/db/schema/disk";
import { notFound } from "@/lib/errors";
import { checkedDiskPath, targetOf } from "@/lib/disk/path-rules";
import { findAttachment } from "@/lib/disk/read-attachment";

/** What a path or `disk://` reference points at: a project file (one version) or an inbound attachment. */
export interface DiskSource {
  kind: "file" | "attachment";
  path: string;
  /** The file version; null for attachments. */
  fileId: string | null;
  eventId: string | null;
  name: string;
  blobKey: string;
  sizeBytes: number;
  contentType: string;
  updatedAt: Date;
}

/**
 * `lock: "share"` holds the file row until the caller commits: a delete or replace under way (which locks it FOR
 * UPDATE and revokes the links it sees) is waited for, and the file is then found gone or replaced.
 */
export async function findSource(db: Executor, opts: { projectId: string; path: string; lock?: "share" }): Promise<DiskSource> {
  const path = checkedDiskPath(opts.path);
  const target = targetOf(path);
  const missing = () => notFound(`File ${path}`, "List files with file_list; attachments are named in their event (evt_…/name).");
  if (!target) throw missing();
  if (target.kind === "attachment") {
    const a = await findAttachment(db, { projectId: opts.projectId, eventId: target.eventId, name: target.name });
    if (!a) throw missing();
    return {
      kind: "attachment",
      path,
      fileId: null,
      eventId: a.eventId,
      name: a.name,
      blobKey: a.blobKey,
      sizeBytes: a.sizeBytes,
      contentType: a.contentType,
      updatedAt: a.createdAt,
    };
  }
  const query = db
    .select()
    .from(diskFiles)
    .where(and(eq(diskFiles.projectId, opts.projectId), eq(diskFiles.path, path)));
  const [f] = opts.lock ? await query.for(opts.lock) : await query;
  if (!f) throw missing();
  const name = path.slice(path.lastIndexOf("/") + 1);
  return {
    kind: "file",
    path,
    fileId: f.id,
    eventId: null,
    name,
    blobKey: f.blobKey,
    sizeBytes: f.sizeBytes,
    contentType: f.contentType,
    updatedAt: f.updatedAt,
  };
}
