import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskLinks } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { linkUrl } from "@/lib/disk/blob-urls";
import { fieldError } from "@/lib/disk/field-error";
import { findSource } from "@/lib/disk/find-source";
import { LINK_MAX_SECONDS, LINK_MIN_SECONDS } from "@/lib/disk/limits";

/**
 * A public link to one file version (or attachment): it works without a key until it expires, and stops when the
 * file is replaced or deleted, the link is revoked, or the key that asked is revoked (checked when served).
 * `fileId`, when given, is the version a person approved: a file replaced since the check gets no link.
 */
export async function createLink(db: Executor, opts: { actor: Actor; path: string; expiresIn: number; fileId?: string | null }) {
  if (!Number.isInteger(opts.expiresIn) || opts.expiresIn < LINK_MIN_SECONDS || opts.expiresIn > LINK_MAX_SECONDS) {
    throw fieldError("expires_in", `must be a whole number of seconds from ${LINK_MIN_SECONDS} to ${LINK_MAX_SECONDS} (7 days)`);
  }
  // Held until the link commits: a delete racing this one revoked the links it could see and left this one live, for
  // a file that no longer existed (found by helper-112).
  const src = await findSource(db, { projectId: opts.actor.projectId, path: opts.path, lock: "share" });
  if (opts.fileId !== undefined && src.fileId !== opts.fileId) {
    throw new AppError("CONFLICT", `${src.path} was replaced while its approved link was being made.`, {
      fix: "Call again with the same approval: it answers whether the approval still holds.",
    });
  }
  const id = newId("lnk");
  const expiresAt = new Date(Date.now() + opts.expiresIn * 1000);
  await db.insert(diskLinks).values({
    id,
    projectId: opts.actor.projectId,
    fileId: src.fileId,
    eventId: src.eventId,
    attachmentName: src.kind === "attachment" ? src.name : null,
    path: src.path,
    blobKey: src.blobKey,
    sizeBytes: src.sizeBytes,
    contentType: src.contentType,
    keyId: opts.actor.keyId,
    expiresAt,
  });
  return { url: linkUrl(id), expires_at: expiresAt.toISOString(), link_id: id };
}
