import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { findSource } from "@/lib/disk/find-source";
import { readBlob } from "@/lib/disk/read-blob";

/**
 * A disk file, `disk://` reference or inbound attachment (`evt_…/name`) as an email attachment would need it
 * (email_send): name, type, size, and its bytes on demand. NOT_FOUND / validation_error (path) as file_get.
 */
export async function openDiskFile(db: Executor, opts: { actor: Actor; path: string }) {
  const src = await findSource(db, { projectId: opts.actor.projectId, path: opts.path });
  return {
    path: src.path,
    name: src.name,
    contentType: src.contentType,
    sizeBytes: src.sizeBytes,
    read: () => readBlob(src.blobKey),
  };
}
