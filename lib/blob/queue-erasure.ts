import type { Executor } from "@/lib/db/client";
import { blobErasures } from "@/lib/db/schema/blob-erasures";
import { UPLOAD_SECONDS } from "@/lib/disk/limits";

/**
 * How long after a project's rows are gone bytes may still land under its prefix: a presigned upload URL (S3) is
 * valid for UPLOAD_SECONDS, and a PUT begun just before expiry may take a while more (as the disk janitor allows).
 */
export const LATE_WRITE_MS = UPLOAD_SECONDS * 1000 + 60 * 60_000;

/** Where a project's objects live in the blob store: every key is built as `projects/<id>/…` (disk and mail). */
export const projectBlobPrefix = (projectId: string) => `projects/${projectId}`;

/**
 * Queues the erasure of every object of a deleted project, in the transaction that deletes its rows: a rollback
 * keeps both, a commit hands the bytes to the janitor (lib/blob/sweep-erasures.ts), which empties the prefix at
 * once and once more after LATE_WRITE_MS. The store is never called inside the transaction, so a store that fails
 * cannot leave rows half deleted; the erasure waits for it instead.
 */
export async function queueProjectErasure(db: Executor, projectId: string, now = new Date()) {
  await db
    .insert(blobErasures)
    .values({ prefix: projectBlobPrefix(projectId), notBefore: now, finalAt: new Date(now.getTime() + LATE_WRITE_MS) })
    .onConflictDoNothing();
}
