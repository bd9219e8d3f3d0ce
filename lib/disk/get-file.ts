import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { downloadUrl } from "@/lib/disk/blob-urls";
import { findSource, type DiskSource } from "@/lib/disk/find-source";
import { fileView } from "@/lib/disk/file-view";
import { DOWNLOAD_URL_SECONDS, INLINE_MAX_BYTES } from "@/lib/disk/limits";
import { readBlob } from "@/lib/disk/read-blob";

/** A 5-minute URL (no key needed) for one file version or attachment; each download counts toward 5 GB a month. */
export function sourceDownloadUrl(projectId: string, src: DiskSource) {
  const expiresAt = new Date(Date.now() + DOWNLOAD_URL_SECONDS * 1000);
  const target = src.fileId ? { f: src.fileId } : { a: [projectId, src.eventId!, src.name] as [string, string, string] };
  return { download_url: downloadUrl(target, expiresAt), expires_at: expiresAt.toISOString() };
}

/** file_get: up to 1 MB the content inline as base64; above, a download URL in its place. */
export async function getFile(db: Executor, opts: { actor: Actor; path: string }) {
  const src = await findSource(db, { projectId: opts.actor.projectId, path: opts.path });
  const view = fileView(src);
  if (src.sizeBytes <= INLINE_MAX_BYTES) {
    return { ...view, content_base64: Buffer.from(await readBlob(src.blobKey)).toString("base64") };
  }
  return { ...view, ...sourceDownloadUrl(opts.actor.projectId, src) };
}
